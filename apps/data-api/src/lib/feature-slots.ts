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

/** The client of a feature request went away before its feature started: it is not run. */
export class ClientGoneError extends Error {
  constructor() {
    super('The connection closed before the feature started; nothing was run.')
    this.name = 'ClientGoneError'
  }
}

/**
 * One feature request's slot: taken when the request is authenticated, freed once its response
 * has closed and the feature work it started has settled, whichever comes later. Freed on close
 * alone, a client could leave while its work still ran in the pool and send the next request: as
 * many features at once as it liked.
 */
export class RequestSlot {
  private working = 0
  private closed = false
  /** Aborted when the response closes: what `hold` runs may give up work no one will receive. */
  private gone: AbortController | undefined

  constructor(private readonly release: () => void) {}

  /**
   * Closes the slot when `response` closes, or at once when it already has: its client may have
   * left during the key's look-up, and a response emits 'close' only once.
   */
  closeWith(response: {
    readonly destroyed: boolean
    once(event: 'close', listener: () => void): unknown
  }): void {
    if (response.destroyed) this.close()
    else response.once('close', this.close)
  }

  /** The response has closed: sent, or its client went away. */
  readonly close = (): void => {
    this.closed = true
    // Work that has settled has nothing to give up: the usual case, the answer being sent after
    // it. Aborting anyway cost every feature request 6 µs (a DOMException with its stack).
    if (this.working > 0) this.gone?.abort()
    else this.release()
  }

  /**
   * Runs `work` with the slot held until it settles, even past the response's close. After the
   * close (its client went away while the body waited to be parsed) it refuses, ClientGoneError:
   * the slot is free again, so the work would run outside the key's limit, for no one. `work` is
   * given a signal that aborts when the response closes (sent, or its client gone), so that it
   * can give up what has not started; the slot stays held until it settles all the same.
   */
  async hold<T>(work: (gone: AbortSignal) => Promise<T>): Promise<T> {
    if (this.closed) throw new ClientGoneError()
    this.gone ??= new AbortController()
    this.working += 1
    try {
      return await work(this.gone.signal)
    } finally {
      this.working -= 1
      if (this.closed && this.working === 0) this.release()
    }
  }
}
