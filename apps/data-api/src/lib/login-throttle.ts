import { createHash } from 'node:crypto'
import type { RedisClient } from '@repo/service-kit'

/**
 * Failed log-ins per account: after `max` failures within the window the account refuses
 * log-ins (even with the right password) until the window passes; a success clears the count.
 * Complements the per-address limit, so spreading guesses over many addresses does not help.
 * Counted in Redis (shared by replicas); the e-mail is hashed so no address sits in Redis.
 */
export class LoginThrottle {
  constructor(
    private readonly redis: RedisClient,
    private readonly max: number,
    private readonly windowSeconds: number,
  ) {}

  private key(email: string): string {
    const digest = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')
    return `login-failures:${digest}`
  }

  /** Seconds until log-ins are accepted again, or 0 when they are now. Fails open. */
  async blockedFor(email: string): Promise<number> {
    try {
      const key = this.key(email)
      const [count, ttl] = await Promise.all([this.redis.get(key), this.redis.ttl(key)])
      return Number(count ?? 0) >= this.max ? Math.max(ttl, 1) : 0
    } catch {
      return 0
    }
  }

  async failed(email: string): Promise<void> {
    const key = this.key(email)
    await this.redis
      .multi()
      .incr(key)
      .expire(key, this.windowSeconds, 'NX')
      .exec()
      .catch(() => undefined)
  }

  async succeeded(email: string): Promise<void> {
    await this.redis.del(this.key(email)).catch(() => undefined)
  }
}
