import { startRedisCluster, type TestRedisCluster, waitFor } from '@repo/service-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { utcDay } from '../../src/lib/clock.js'
import { QuotaStore } from '../../src/lib/quota.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

/*
 * data-api on a real 3-master Redis Cluster (started from the machine's redis-server): two
 * instances configured with REDIS_CLUSTER_NODES, and a third pointed by REDIS_URL at one node.
 */

let cluster: TestRedisCluster
let first: TestApp
let second: TestApp
let urls: string[]

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 })
  const env = { REDIS_CLUSTER_NODES: cluster.seeds }
  first = await createTestApp('cluster', { env })
  second = await createTestApp('cluster', { env, shareWith: first })
  urls = [
    await first.app.listen({ host: '127.0.0.1', port: 0 }),
    await second.app.listen({ host: '127.0.0.1', port: 0 }),
  ]
}, 60_000)
afterAll(async () => {
  await second?.close()
  await first?.close()
  await cluster?.close()
})

async function statuses(key: string, requests: number, targets: string[]) {
  const results = await Promise.all(
    Array.from({ length: requests }, async (_, i) => {
      const res = await fetch(`${targets[i % targets.length]}/api/v1/data`, {
        headers: { authorization: `Bearer ${key}` },
      })
      await res.arrayBuffer()
      return res.status
    }),
  )
  return results.reduce<Record<number, number>>((acc, status) => {
    acc[status] = (acc[status] ?? 0) + 1
    return acc
  }, {})
}

async function keyId(url: string, key: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/data`, { headers: { authorization: `Bearer ${key}` } })
  return ((await res.json()) as { key: { id: string } }).key.id
}

describe('two instances on a Redis Cluster', () => {
  it('admit exactly the FREE limit of 1,000 out of 1,050 concurrent requests', async () => {
    const client = new DashboardClient(first.app)
    await client.signUp(uniqueEmail('cluster-burst'))
    const key = await client.createKey()
    expect(await statuses(key, 1_050, urls)).toEqual({ 200: 1000, 429: 50 })
  })

  it('refuse a key revoked on one instance on the other within a second', async () => {
    const client = new DashboardClient(first.app)
    await client.signUp(uniqueEmail('cluster-revoke'))
    const key = await client.createKey()
    const id = await keyId(urls[1] as string, key) // cached on the second instance now
    await client.revoke(id)
    const revokedAt = Date.now()
    await waitFor(
      'the second instance to refuse the revoked key',
      async () => (await statuses(key, 1, [urls[1] as string]))[401] === 1,
      1_000,
      20,
    )
    expect(Date.now() - revokedAt).toBeLessThan(1_000)
  })

  it('keep answering while the master of a key is down, and count again once it is back', async () => {
    const client = new DashboardClient(first.app)
    await client.signUp(uniqueEmail('cluster-failure'))
    const key = await client.createKey()
    const id = await keyId(urls[0] as string, key)
    const master = await cluster.masterOf(QuotaStore.key(id, utcDay(new Date())))
    await cluster.stopNode(master)
    try {
      // Fail open: answered, counted in memory meanwhile, and readiness says Redis is down.
      expect(await statuses(key, 20, urls)).toEqual({ 200: 20 })
      const ready = await first.app.inject({ url: '/ready' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toMatchObject({ status: 'degraded', checks: { redis: 'down' } })
    } finally {
      await cluster.startNode(master)
    }
    // The node comes back empty (no persistence in this test cluster): counting starts again.
    await waitFor('counting to resume', async () => {
      const res = await fetch(`${urls[0]}/api/v1/data`, {
        headers: { authorization: `Bearer ${key}` },
      })
      const body = (await res.json()) as { quota: { used: number } }
      const used = await first.app.redis.get(QuotaStore.key(id, utcDay(new Date())))
      return res.status === 200 && used !== null && Number(used) === body.quota.used
    })
    await waitFor(
      'readiness to see Redis up again',
      async () => (await first.app.inject({ url: '/ready' })).json().checks.redis === 'up',
    )
  })
})

describe('an instance whose REDIS_URL points at a cluster node', () => {
  it('uses it as a cluster and never admits more than the quota', async () => {
    const node = cluster.nodes[1]
    const third = await createTestApp('cluster', {
      env: { REDIS_URL: `redis://${node?.address}` },
      shareWith: first,
    })
    try {
      const url = await third.app.listen({ host: '127.0.0.1', port: 0 })
      expect((await third.app.inject({ url: '/ready' })).json().checks.redis).toBe('up')
      const client = new DashboardClient(first.app)
      await client.signUp(uniqueEmail('cluster-url'))
      const key = await client.createKey()
      expect(await statuses(key, 1_050, [url])).toEqual({ 200: 1000, 429: 50 })
    } finally {
      await third.close()
    }
  })
})
