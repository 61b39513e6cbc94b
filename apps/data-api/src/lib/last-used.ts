import { boundedCache } from '@repo/service-kit'

/**
 * Records when keys are used without a write per request: uses are collected in memory and
 * written in one statement every `flushMs` (and at shutdown). `previous()` answers from memory
 * for keys this instance has seen, so the API can say when a key was last used before now.
 */
export class LastUsedWriter {
  private pending = new Map<string, Date>()
  private readonly seen = boundedCache<string, Date>(50_000)
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly write: (times: Map<string, Date>) => Promise<void>,
    private readonly flushMs: number,
    private readonly onError: (error: Error) => void = () => {},
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.flushMs)
    this.timer.unref()
  }

  /** Notes a use and returns the previous one this instance knows of. */
  note(keyId: string, at: Date): Date | undefined {
    const previous = this.seen.get(keyId)
    this.seen.set(keyId, at)
    this.pending.set(keyId, at)
    return previous
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return
    const batch = this.pending
    this.pending = new Map()
    try {
      await this.write(batch)
    } catch (error) {
      // Keep the newest times for the next attempt rather than lose them.
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at)
      this.onError(error as Error)
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}
