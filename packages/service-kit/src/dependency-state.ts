import type { FastifyBaseLogger } from 'fastify'

export type DependencyStatus = 'up' | 'down'

export interface DependencyStateOptions {
  name: string
  log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>
  /** Called on every failure (a metric), whether or not the state changes. */
  onFailure?: (error: Error) => void
  /** Called when the state changes (a gauge). */
  onChange?: (status: DependencyStatus) => void
}

/**
 * What a service currently knows of a dependency (Redis, Postgres), from the outcome of the real
 * commands it sends: one log line when it goes down and one when it comes back, never one per
 * request. `up()` is a boolean test on the hot path, so callers may report every success.
 */
export class DependencyState {
  private current: DependencyStatus = 'up'
  private downSince: number | undefined
  private failures = 0

  constructor(private readonly opts: DependencyStateOptions) {}

  get status(): DependencyStatus {
    return this.current
  }

  get isUp(): boolean {
    return this.current === 'up'
  }

  /** A command succeeded. */
  up(): void {
    if (this.current === 'up') return
    const downMs = this.downSince === undefined ? 0 : Date.now() - this.downSince
    this.opts.log.info(
      { dependency: this.opts.name, down_ms: downMs, failures: this.failures },
      `${this.opts.name} is available again`,
    )
    this.current = 'up'
    this.downSince = undefined
    this.failures = 0
    this.opts.onChange?.('up')
  }

  /** Reports how `command` ends (up, or down with its error) and passes its outcome on. */
  async track<T>(command: Promise<T>): Promise<T> {
    try {
      const value = await command
      this.up()
      return value
    } catch (error) {
      this.down(error as Error)
      throw error
    }
  }

  /** A command failed (or the connection dropped). */
  down(error: Error): void {
    this.opts.onFailure?.(error)
    this.failures += 1
    if (this.current === 'down') return
    this.opts.log.warn(
      { dependency: this.opts.name, err: error },
      `${this.opts.name} is unavailable: serving in degraded mode until it answers again`,
    )
    this.current = 'down'
    this.downSince = Date.now()
    this.opts.onChange?.('down')
  }
}
