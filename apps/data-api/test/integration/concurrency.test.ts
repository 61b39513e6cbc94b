import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

let first: TestApp
let second: TestApp
let urls: string[]

beforeAll(async () => {
  first = await createTestApp('concurrency')
  second = await createTestApp('concurrency', { shareWith: first })
  urls = [
    await first.app.listen({ host: '127.0.0.1', port: 0 }),
    await second.app.listen({ host: '127.0.0.1', port: 0 }),
  ]
})
afterAll(async () => {
  await second?.close()
  await first?.close()
})

describe('two instances sharing Redis', () => {
  it('admit exactly the FREE limit of 1,000 out of 1,500 concurrent requests', async () => {
    const client = new DashboardClient(first.app)
    await client.signUp(uniqueEmail('burst'))
    const key = await client.createKey()
    const results = await Promise.all(
      Array.from({ length: 1_500 }, async (_, i) => {
        const res = await fetch(`${urls[i % 2]}/api/v1/data`, {
          headers: { authorization: `Bearer ${key}` },
        })
        await res.arrayBuffer()
        return res.status
      }),
    )
    const counts = results.reduce<Record<number, number>>((acc, status) => {
      acc[status] = (acc[status] ?? 0) + 1
      return acc
    }, {})
    expect(counts).toEqual({ 200: 1000, 429: 500 })
  })

  it('refuse a revoked key on every instance at once', async () => {
    const client = new DashboardClient(first.app)
    await client.signUp(uniqueEmail('revoke'))
    const key = await client.createKey()
    const headers = { authorization: `Bearer ${key}` }
    // Both instances have the key cached now.
    const ok = await Promise.all(urls.map((url) => fetch(`${url}/api/v1/data`, { headers })))
    expect(ok.map((r) => r.status)).toEqual([200, 200])
    const firstResponse = ok[0] as Response
    const id = ((await firstResponse.json()) as { key: { id: string } }).key.id
    await client.revoke(id)
    // Pub/sub delivery takes well under a second; allow it one.
    const deadline = Date.now() + 1_000
    let statuses: number[] = []
    do {
      statuses = await Promise.all(
        urls.map(async (url) => (await fetch(`${url}/api/v1/data`, { headers })).status),
      )
    } while (statuses.some((s) => s !== 401) && Date.now() < deadline)
    expect(statuses).toEqual([401, 401])
  })
})
