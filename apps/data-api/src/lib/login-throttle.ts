import { createHash } from 'node:crypto'
import type { DependencyState, RedisClient } from '@repo/service-kit'
import { LRUCache } from 'lru-cache'

// Counts an attempt and starts the window with the first one; returns {attempts, seconds left}.
const ATTEMPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}
`

type RedisWithAttempt = RedisClient & {
  loginAttempt(key: string, windowSeconds: number): Promise<[number, number]>
}

/**
 * Log-in attempts per account: at most `max` attempts without a success within the window, after
 * which log-ins for that account are refused (even with the right password) until the window
 * passes; a success clears the count. Each attempt is counted atomically *before* the password is
 * checked, so guesses sent in parallel are counted too, and a refused guess costs no hashing.
 * Complements the per-address limit, so spreading guesses over many addresses does not help.
 * Counted in Redis (shared by replicas; the e-mail is hashed so no address sits in Redis); in
 * memory, per instance, while Redis is unreachable.
 */
export class LoginThrottle {
  private readonly redis: RedisWithAttempt
  private readonly local = new LRUCache<string, { attempts: number; until: number }>({
    max: 100_000,
  })

  constructor(
    redis: RedisClient,
    private readonly state: DependencyState,
    private readonly max: number,
    private readonly windowSeconds: number,
  ) {
    this.redis = redis as RedisWithAttempt
    if (typeof this.redis.loginAttempt !== 'function') {
      redis.defineCommand('loginAttempt', { numberOfKeys: 1, lua: ATTEMPT })
    }
  }

  /** `email` must be normalised (see normalizeEmail). */
  private key(email: string): string {
    return `login-attempts:${createHash('sha256').update(email).digest('base64url')}`
  }

  /** Counts an attempt; resolves to the seconds to wait when it is one too many, else 0. */
  async attempt(email: string): Promise<number> {
    const key = this.key(email)
    let attempts: number
    let ttl: number
    try {
      ;[attempts, ttl] = await this.redis.loginAttempt(key, this.windowSeconds)
      this.state.up()
    } catch (error) {
      this.state.down(error as Error)
      const now = Date.now()
      let entry = this.local.get(key)
      if (!entry || entry.until <= now) {
        entry = { attempts: 0, until: now + this.windowSeconds * 1000 }
        this.local.set(key, entry)
      }
      entry.attempts += 1
      attempts = entry.attempts
      ttl = Math.ceil((entry.until - now) / 1000)
    }
    return attempts > this.max ? Math.max(ttl, 1) : 0
  }

  async succeeded(email: string): Promise<void> {
    const key = this.key(email)
    this.local.delete(key)
    await this.redis.del(key).catch((error: Error) => this.state.down(error))
  }
}
