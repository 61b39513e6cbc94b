import { addressKey, boundedCache } from '@repo/service-kit'
import type { WindowCounter } from './window-counter.js'

/**
 * 401s per client address (IPv6 per /64, as every per-address limit): after `max` refusals in a
 * window, requests from that address without a key this instance already knows get 429 until the
 * window ends, and cost nothing (no checksum, no look-up). Counted in Redis across replicas; the
 * block itself is kept in memory, learnt by each instance on its next 401 from that address.
 */
export class UnauthorizedLimiter {
  private readonly blockedUntil = boundedCache<string, number>(100_000)

  constructor(
    private readonly counter: WindowCounter,
    private readonly max: number,
  ) {}

  /** Seconds before this address may try again, or 0 (memory only: the hot path). */
  wait(ip: string): number {
    if (this.blockedUntil.size === 0) return 0
    const until = this.blockedUntil.get(addressKey(ip))
    if (until === undefined) return 0
    const ms = until - Date.now()
    return ms > 0 ? Math.ceil(ms / 1000) : 0
  }

  /** A request from this address was answered 401. */
  async refused(ip: string): Promise<void> {
    const address = addressKey(ip)
    const { hits, ttl } = await this.counter.hit(address)
    if (hits >= this.max) this.blockedUntil.set(address, Date.now() + ttl * 1000)
  }
}
