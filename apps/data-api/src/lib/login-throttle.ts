import { createHash } from 'node:crypto'
import type { WindowCounter } from './window-counter.js'

/**
 * Log-in attempts per account: at most `max` attempts without a success within the window, after
 * which log-ins for that account are refused (even with the right password) until the window
 * passes; a success clears the count. Each attempt is counted atomically *before* the password is
 * checked, so guesses sent in parallel are counted too, and a refused guess costs no hashing.
 * Complements the per-address limit, so spreading guesses over many addresses does not help. The
 * e-mail is hashed, so no address sits in Redis.
 */
export class LoginThrottle {
  constructor(
    private readonly counter: WindowCounter,
    private readonly max: number,
  ) {}

  /** `email` must be normalised (see normalizeEmail). */
  private name(email: string): string {
    return createHash('sha256').update(email).digest('base64url')
  }

  /** Counts an attempt; resolves to the seconds to wait when it is one too many, else 0. */
  async attempt(email: string): Promise<number> {
    const { hits, ttl } = await this.counter.hit(this.name(email))
    return hits > this.max ? Math.max(ttl, 1) : 0
  }

  async succeeded(email: string): Promise<void> {
    await this.counter.reset(this.name(email))
  }
}
