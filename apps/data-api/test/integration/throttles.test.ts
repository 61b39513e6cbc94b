import { DependencyState, type RedisClient } from '@repo/service-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LoginThrottle } from '../../src/lib/login-throttle.js'
import { UnauthorizedLimiter } from '../../src/lib/unauthorized-limiter.js'
import { WindowCounter } from '../../src/lib/window-counter.js'
import { type RedisWithClient, startRedisWithClient } from '../support/private-redis.js'

/*
 * The log-in throttle (per account) and the 401 limiter (per address) on a Redis of the test's
 * own: what each allows, when it refuses, for how long, and what clears it.
 */

let client: RedisClient
const quiet = { warn() {}, info() {}, error() {} }
const state = new DependencyState({ name: 'redis', log: quiet })
let prefixes = 0
const counter = (windowSeconds: number) =>
  new WindowCounter(client, state, `throttles-${prefixes++}:`, windowSeconds)

let stores: RedisWithClient | undefined
beforeAll(async () => {
  stores = await startRedisWithClient()
  client = stores.client
}, 60_000)
afterAll(async () => {
  await stores?.close()
})

describe('log-in throttle', () => {
  it('allows max attempts per account, then asks to wait out the window, even for a right password', async () => {
    const throttle = new LoginThrottle(counter(900), 3)
    for (let i = 0; i < 3; i += 1) expect(await throttle.attempt('a@example.com')).toBe(0)
    const wait = await throttle.attempt('a@example.com')
    expect(wait).toBeGreaterThan(890)
    expect(wait).toBeLessThanOrEqual(900)
    // Another account is its own count.
    expect(await throttle.attempt('b@example.com')).toBe(0)
  })

  it('starts again after a success', async () => {
    const throttle = new LoginThrottle(counter(900), 2)
    await throttle.attempt('c@example.com')
    await throttle.attempt('c@example.com')
    await throttle.succeeded('c@example.com')
    expect(await throttle.attempt('c@example.com')).toBe(0)
    expect(await throttle.attempt('c@example.com')).toBe(0)
    expect(await throttle.attempt('c@example.com')).toBeGreaterThan(0)
  })

  it('keeps no e-mail address in Redis', async () => {
    const throttle = new LoginThrottle(counter(900), 2)
    await throttle.attempt('secret.person@example.com')
    const keys = await client.keys('*')
    expect(keys.join(' ')).not.toContain('secret.person')
  })

  it('asks for at least a second when the window is about to end', async () => {
    const throttle = new LoginThrottle(counter(1), 1)
    await throttle.attempt('d@example.com')
    expect(await throttle.attempt('d@example.com')).toBeGreaterThanOrEqual(1)
  })
})

describe('401 limiter', () => {
  it('blocks an address once it reaches max refusals, for what is left of the window', async () => {
    const limiter = new UnauthorizedLimiter(counter(60), 3)
    expect(limiter.wait('198.51.100.7')).toBe(0)
    await limiter.refused('198.51.100.7')
    await limiter.refused('198.51.100.7')
    expect(limiter.wait('198.51.100.7')).toBe(0)
    await limiter.refused('198.51.100.7')
    const wait = limiter.wait('198.51.100.7')
    expect(wait).toBeGreaterThan(55)
    expect(wait).toBeLessThanOrEqual(60)
    expect(limiter.wait('198.51.100.8')).toBe(0)
  })

  it('counts an IPv6 /64 as one address', async () => {
    const limiter = new UnauthorizedLimiter(counter(60), 2)
    await limiter.refused('2001:db8:1:2::1')
    await limiter.refused('2001:db8:1:2:ffff::9')
    expect(limiter.wait('2001:db8:1:2::abcd')).toBeGreaterThan(0)
    expect(limiter.wait('2001:db8:1:3::1')).toBe(0)
  })

  it('lets an address in again when its block has passed', async () => {
    const limiter = new UnauthorizedLimiter(counter(1), 1)
    await limiter.refused('203.0.113.9')
    expect(limiter.wait('203.0.113.9')).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect(limiter.wait('203.0.113.9')).toBe(0)
  })
})
