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

  it('keeps the shared count in Redis, reserved in batches', async () => {
    const ip = '203.0.113.9'
    await t.app.inject({ url: '/api', remoteAddress: ip })
    await t.app.inject({ url: '/api', remoteAddress: ip })
    const keys = await t.app.redis.keys(`${t.redis.prefix}quotes:rl:*${ip}*`)
    expect(keys).toHaveLength(1)
    const key = (keys[0] as string).slice(t.redis.prefix.length)
    // RATE_LIMIT_MAX is 3: the first reservation takes what a replica may take of it.
    expect(Number(await t.app.redis.get(key))).toBeGreaterThanOrEqual(2)
    expect(await t.app.redis.pttl(key)).toBeGreaterThan(0)
  })

  // RATE_LIMIT_MAX is 3: a fourth request from the same client is refused, its neighbour's is not.
  it.each([
    {
      client: 'an IPv6 client, per /64',
      addresses: [
        '2001:db8:1:2::1',
        '2001:db8:1:2::2',
        '2001:db8:1:2::abcd:1',
        '2001:db8:1:2:ffff::1',
      ],
      neighbour: '2001:db8:1:3::1',
    },
    {
      client:
        'an IPv4 client seen through a dual-stack listener (::ffff:a.b.c.d), as its IPv4 address',
      addresses: ['198.51.100.20', '::ffff:198.51.100.20', '::FFFF:198.51.100.20', '198.51.100.20'],
      neighbour: '::ffff:198.51.100.21',
    },
  ])('counts $client', async ({ addresses, neighbour }) => {
    const statuses: number[] = []
    for (const address of [...addresses, neighbour]) {
      statuses.push((await t.app.inject({ url: '/api', remoteAddress: address })).statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 429, 200])
  })
})

describe('a second instance sharing Redis', () => {
  it('refuses past the shared ceiling at once: the limit is exact across instances', async () => {
    const second = await createTestApp('fairuse2', {
      RATE_LIMIT_MAX: '3',
      REDIS_KEY_PREFIX: t.redis.prefix,
    })
    try {
      const ip = '198.51.100.1'
      const first = t.app
      const statuses: number[] = []
      for (let i = 0; i < 6; i += 1) {
        const app = i % 2 === 0 ? first : second.app
        statuses.push((await app.inject({ url: '/api', remoteAddress: ip })).statusCode)
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(3)
      expect(statuses.slice(4)).toEqual([429, 429])
    } finally {
      await second.close()
    }
  })
})

describe('client addresses behind a proxy', () => {
  const forwarded = (peer: string, client: string) => ({
    url: '/api/q/q1',
    remoteAddress: peer,
    headers: { 'x-forwarded-for': client },
  })

  it('ignores X-Forwarded-For without TRUST_PROXY: the peer address is the client', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await t.app.inject(forwarded('203.0.113.50', `198.51.100.${i}`))).statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 429])
  })

  it('believes X-Forwarded-For only from the proxies listed in TRUST_PROXY', async () => {
    const proxied = await createTestApp('fairuse_proxy', {
      RATE_LIMIT_MAX: '3',
      TRUST_PROXY: '10.0.0.0/8, 192.0.2.1',
    })
    try {
      const statuses = async (peer: string, client: string) => {
        const results: number[] = []
        for (let i = 0; i < 4; i += 1) {
          results.push((await proxied.app.inject(forwarded(peer, client))).statusCode)
        }
        return results
      }
      // Through a trusted proxy, each client is counted apart...
      expect(await statuses('10.1.2.3', '198.51.100.7')).toEqual([200, 200, 200, 429])
      expect(await statuses('192.0.2.1', '198.51.100.8')).toEqual([200, 200, 200, 429])
      // ...and the proxy's other clients are not refused for them.
      expect((await proxied.app.inject(forwarded('10.1.2.3', '198.51.100.9'))).statusCode).toBe(200)
      // A peer not in the list cannot choose its address.
      expect(await statuses('203.0.113.60', '198.51.100.10')).toEqual([200, 200, 200, 429])
      expect(
        (await proxied.app.inject(forwarded('203.0.113.60', '198.51.100.11'))).statusCode,
      ).toBe(429)
    } finally {
      await proxied.close()
    }
  })
})
