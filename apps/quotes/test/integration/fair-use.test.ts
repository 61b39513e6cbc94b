import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp('fairuse', { RATE_LIMIT_MAX: '3' })
})
afterAll(async () => {
  await t?.close()
})

describe('per-client ceiling', () => {
  it('answers 429 with Retry-After and rate-limit headers past the ceiling', async () => {
    const ip = '203.0.113.7'
    const statuses: number[] = []
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({ url: '/api/q/q1', remoteAddress: ip })
      statuses.push(res.statusCode)
      // Lean successful responses: the limit headers come with a refusal.
      expect(res.headers['x-ratelimit-limit']).toBeUndefined()
    }
    const refused = await t.app.inject({
      url: '/api/q/q1',
      remoteAddress: ip,
      headers: { accept: 'application/json' },
    })
    expect(statuses).toEqual([200, 200, 200])
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.headers['x-ratelimit-limit']).toBe('3')
    expect(refused.headers['x-ratelimit-remaining']).toBe('0')
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429 })
    expect(refused.json().detail).toMatch(/100 requests a minute/)
  })

  it('counts each address apart, and never limits the operations endpoints', async () => {
    const other = await t.app.inject({ url: '/api/q/q1', remoteAddress: '203.0.113.8' })
    expect(other.statusCode).toBe(200)
    for (let i = 0; i < 5; i += 1) {
      const health = await t.app.inject({ url: '/health', remoteAddress: '203.0.113.7' })
      expect(health.statusCode).toBe(200)
    }
  })

  it('shares counts through Redis', async () => {
    const ip = '203.0.113.9'
    await t.app.inject({ url: '/api', remoteAddress: ip })
    await t.app.inject({ url: '/api', remoteAddress: ip })
    // Counts reach Redis in batches; wait for one flush interval.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const keys = await t.app.redis.keys(`${t.redis.prefix}quotes:rl:*${ip}*`)
    expect(keys).toHaveLength(1)
    const key = (keys[0] as string).slice(t.redis.prefix.length)
    expect(await t.app.redis.get(key)).toBe('2')
    expect(await t.app.redis.pttl(key)).toBeGreaterThan(0)
  })
})

describe('a second instance sharing Redis', () => {
  it('sees the first instance’s counts and refuses past the shared ceiling', async () => {
    const second = await createTestApp('fairuse2', {
      RATE_LIMIT_MAX: '3',
      REDIS_KEY_PREFIX: t.redis.prefix,
    })
    try {
      const ip = '198.51.100.1'
      for (let i = 0; i < 3; i += 1) {
        expect((await t.app.inject({ url: '/api', remoteAddress: ip })).statusCode).toBe(200)
      }
      await new Promise((resolve) => setTimeout(resolve, 300))
      // The second instance learns the shared count with its first flush.
      await second.app.inject({ url: '/api', remoteAddress: ip })
      await new Promise((resolve) => setTimeout(resolve, 300))
      const res = await second.app.inject({ url: '/api', remoteAddress: ip })
      expect(res.statusCode).toBe(429)
    } finally {
      await second.close()
    }
  })
})
