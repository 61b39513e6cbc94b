import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { waitFor } from '@repo/service-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { inputOf } from '../support/input-classes.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

// Heavy input: features run in the worker pool, so the event loop keeps answering; per-key slots,
// a bounded queue and a time budget keep one client from taking the pool.

const MB = 1_000_000
let t: TestApp
let base: string

async function enterpriseKey(app = t.app): Promise<string> {
  const client = new DashboardClient(app)
  await client.signUp(uniqueEmail('heavy'), 'ENTERPRISE')
  return client.createKey()
}

function post(url: string, key: string, body: unknown) {
  return fetch(`${url}/api/v1/data`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

beforeAll(async () => {
  // A long budget: this machine may be busy, and these tests are about order and limits.
  t = await createTestApp('heavy', { env: { FEATURE_THREADS: '2', FEATURE_TIMEOUT_MS: '60000' } })
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
}, 60_000)
afterAll(async () => {
  await t?.close()
})

describe('eight one-megabyte requests in flight', () => {
  it('do not hold up /health or GET /api/v1/data: both are answered while most of them still run', async () => {
    const key = await enterpriseKey()
    const english = inputOf('english', MB)
    // The slowest first: the two threads are busy for a while before any of them can finish.
    const calls = [
      { data: inputOf('chinese', MB), options: { feature: 'stats' } },
      { data: english, options: { feature: 'redact' } },
      { data: english, options: { feature: 'summary' } },
      { data: english, options: { feature: 'entities' } },
      { data: english, options: { feature: 'keywords' } },
      { data: english, options: { feature: 'sentiment' } },
      { data: english, options: { feature: 'stats' } },
      { data: english, options: { feature: 'language' } },
    ]
    const finished: string[] = []
    const heavy = calls.map(async (body, i) => {
      const res = await post(base, key, body)
      await res.arrayBuffer()
      finished.push(`heavy ${i} ${res.status}`)
      return res.status
    })
    // Once the pool is working on them, the light requests go out.
    const deadline = Date.now() + 20_000
    while (t.app.featurePool.running < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(t.app.featurePool.running).toBe(2)
    const light = [
      fetch(`${base}/health`).then(async (res) => {
        await res.arrayBuffer()
        finished.push(`health ${res.status}`)
      }),
      fetch(`${base}/api/v1/data`, { headers: { authorization: `Bearer ${key}` } }).then(
        async (res) => {
          await res.arrayBuffer()
          finished.push(`get ${res.status}`)
        },
      ),
    ]
    await Promise.all(light)
    const statuses = await Promise.all(heavy)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200])
    // Not before every one of them: bodies reach the pool in no set order, and the fastest
    // features take a few milliseconds on a megabyte (language 7 ms, features/README.md), less
    // than a GET's few turns of the event loop while the other bodies are read. Run on the event
    // loop, the eight would answer before the two.
    const answered = finished.slice(0, 4)
    expect(answered).toContain('get 200')
    expect(answered).toContain('health 200')
  }, 180_000)
})

describe('per-key slots', () => {
  it('refuse a FREE key’s third feature request while two are running, uncounted', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('slots'))
    const key = await client.createKey()
    // Two requests that hold their slots: their bodies are still coming.
    const held = [0, 1].map(() => {
      let finish: () => void = () => {}
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"data":"held open","opt'))
          finish = () => {
            controller.enqueue(new TextEncoder().encode('ions":{"feature":"stats"}}'))
            controller.close()
          }
        },
      })
      const response = fetch(`${base}/api/v1/data`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit)
      return { response, finish: () => finish() }
    })
    const deadline = Date.now() + 10_000
    while (t.app.featureSlots.held((await keyIdOf(key)) ?? '') < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    const third = await post(base, key, { data: 'one more', options: { feature: 'stats' } })
    expect(third.status).toBe(429)
    expect(third.headers.get('retry-after')).toBe('1')
    expect(((await third.json()) as { code: string }).code).toBe('CONCURRENCY_LIMIT')
    for (const h of held) h.finish()
    expect(await Promise.all(held.map(async (h) => (await h.response).status))).toEqual([200, 200])
    // Counted: the two that ran and this GET; not the refused one.
    expect((await callData(t.app, key)).json().quota.used).toBe(3)
  })
})

describe('a client that goes away', () => {
  it('keeps its slots until its features have left the pool, and its waiting calls are not run', async () => {
    // One thread, held by a long call of the test's own (stats on 40 MB takes seconds in any
    // worker; its non-ASCII letter sends the words through ICU): the key's 8 calls all wait
    // behind it, however slowly their bodies arrive. (Without it, a redact of 1 MB could finish
    // on a loaded machine before the eighth body had been read, and 8 never were in the pool.)
    const one = await createTestApp('heavy', {
      env: { FEATURE_THREADS: '1', FEATURE_TIMEOUT_MS: '120000' },
      shareWith: t,
    })
    // The responses of this key's requests that the server has seen close.
    let closed = 0
    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      if (req.headers.authorization === `Bearer ${key}`) res.once('close', () => (closed += 1))
    }
    const key = await enterpriseKey(one.app)
    const pool = one.app.featurePool
    let blockerDone = false
    const blocker = pool
      .run('stats', 'many wörds here. '.repeat(2_500_000), { feature: 'stats' })
      .finally(() => (blockerDone = true))
    try {
      await waitFor('the thread to start the long call', async () => pool.running === 1)
      const url = await one.app.listen({ host: '127.0.0.1', port: 0 })
      const keyId = (await keyIdOf(key, one.app)) as string
      one.app.server.on('request', onRequest)
      const body = JSON.stringify({ data: inputOf('english', MB), options: { feature: 'redact' } })
      // ENTERPRISE's 8, each whole body sent; the clients leave once the pool has every call.
      let leaving = false
      const early: string[] = []
      const clients = Array.from({ length: 8 }, () => {
        const req = httpRequest({
          host: '127.0.0.1',
          port: new URL(url).port,
          method: 'POST',
          path: '/api/v1/data',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        })
        req.on('response', (res) => early.push(`answered ${res.statusCode}`))
        req.on('error', (error) => leaving || early.push(error.message))
        req.end(body)
        return req
      })
      await waitFor('the 8 calls waiting', async () => pool.queued === 8, 60_000)
      expect(early).toEqual([])
      leaving = true
      for (const req of clients) req.destroy()
      await waitFor('the server to see them close', async () => closed === 8)
      // Gone, but each call still in the pool keeps its key's slot, given up or not: all 8
      // while the long call holds the thread.
      expect(blockerDone).toBe(false)
      expect(pool.queued).toBe(8)
      expect(one.app.featureSlots.held(keyId)).toBe(8)
      await blocker
      await waitFor('the pool to pass them', async () => pool.running + pool.queued === 0, 60_000)
      await waitFor('their slots freed', async () => one.app.featureSlots.held(keyId) === 0)
      // None was run: the worker skipped every one.
      expect(pool.givenUp).toBe(8)
      const metrics = await one.app.inject({ url: '/metrics' })
      expect(metrics.body).toContain('feature_calls_given_up_total 8\n')
      const after = await post(url, key, { data: 'again', options: { feature: 'stats' } })
      expect(after.status).toBe(200)
    } finally {
      one.app.server.off('request', onRequest)
      await one.close()
    }
  }, 180_000)
})

const keyIds = new Map<string, string>()
async function keyIdOf(key: string, app = t.app): Promise<string | undefined> {
  if (!keyIds.has(key)) {
    const { rows } = await app.pg.query(
      "SELECT id FROM api_keys WHERE key_hash = sha256(convert_to($1, 'UTF8'))",
      [key],
    )
    if (rows[0]) keyIds.set(key, rows[0].id)
  }
  return keyIds.get(key)
}

describe('the pool’s limits', () => {
  it('answers 503 OVERLOADED when every thread is busy and the queue is full, uncounted', async () => {
    const small = await createTestApp('heavy', {
      env: { FEATURE_THREADS: '1', FEATURE_QUEUE_MAX: '0' },
      shareWith: t,
    })
    try {
      const url = await small.app.listen({ host: '127.0.0.1', port: 0 })
      const key = await enterpriseKey(small.app)
      const data = inputOf('english', MB)
      const statuses = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const res = await post(url, key, { data, options: { feature: 'summary' } })
          const body = (await res.json()) as { code?: string }
          return res.status === 503
            ? `503 ${body.code} ${res.headers.get('retry-after')}`
            : String(res.status)
        }),
      )
      const served = statuses.filter((s) => s === '200').length
      expect(served).toBeGreaterThanOrEqual(1)
      expect(statuses.filter((s) => s === '503 OVERLOADED 2')).toHaveLength(6 - served)
      expect(served).toBeLessThan(6)
      expect((await callData(small.app, key)).json().quota.used).toBe(served + 1)
    } finally {
      await small.close()
    }
  }, 60_000)

  it('cancels a call past its time budget: 503 FEATURE_TIMEOUT, uncounted', async () => {
    // 100 ms: a thread picks the call up well within it, and stats on 1 MB of Chinese (ICU word
    // segmentation) runs well past it.
    const strict = await createTestApp('heavy', {
      env: { FEATURE_TIMEOUT_MS: '100', FEATURE_THREADS: '1' },
      shareWith: t,
    })
    try {
      const key = await enterpriseKey(strict.app)
      // The worker starts (and loads its modules) on the first calls: warm it up first.
      let warm = 0
      for (let i = 0; i < 50 && warm !== 200; i += 1) {
        warm = (
          await callData(strict.app, key, { data: 'Warm up.', options: { feature: 'stats' } })
        ).statusCode
      }
      expect(warm).toBe(200)
      const before = (await callData(strict.app, key)).json().quota.used
      const res = await callData(strict.app, key, {
        data: inputOf('chinese', MB),
        options: { feature: 'stats' },
      })
      expect(res.statusCode).toBe(503)
      expect(res.json().code).toBe('FEATURE_TIMEOUT')
      expect(res.headers['retry-after']).toBe('5')
      expect((await callData(strict.app, key)).json().quota.used).toBe(before + 1)
    } finally {
      await strict.close()
    }
  }, 120_000)
})
