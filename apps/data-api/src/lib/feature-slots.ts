/**
 * Feature requests running per key, on this instance: a key may hold at most its plan's number
 * of slots at once (FREE 2, PRO 4, ENTERPRISE 8), so one stranger cannot fill the worker pool.
 * Counted in memory, with no Redis round trip: behind N replicas a key can run up to N times its
 * limit in all, each replica's pool still protected (and a crashed instance leaks nothing).
 */
export class FeatureSlots {
  private readonly running = new Map<string, number>()

  /** Takes a slot for the key; returns the release function, or undefined when none is free. */
  take(keyId: string, limit: number): (() => void) | undefined {
    const held = this.running.get(keyId) ?? 0
    if (held >= limit) return undefined
    this.running.set(keyId, held + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      const now = (this.running.get(keyId) ?? 1) - 1
      if (now <= 0) this.running.delete(keyId)
      else this.running.set(keyId, now)
    }
  }

  /** Slots in use for a key (for tests and metrics). */
  held(keyId: string): number {
    return this.running.get(keyId) ?? 0
  }
}
