import type { FastifyBaseLogger } from 'fastify'
import type { Bindings, ChildLoggerOptions } from 'pino'

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type LogFn = (...args: unknown[]) => void

/**
 * The per-request logger, created only when a request actually logs. Fastify makes a pino child
 * (with the request id) for every request; at `info`, successful requests never log, so that
 * child was pure allocation on the hot path. This stands in for it and makes the real child on
 * the first log call at an enabled level.
 */
export class LazyRequestLogger {
  private real: FastifyBaseLogger | undefined

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.real?.level ?? this.options.level ?? this.parent.level
  }

  set level(level: string) {
    this.logger().level = level
  }

  private logger(): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindings, this.options)
    return this.real
  }

  private log(level: Level, args: unknown[]): void {
    const parent = this.parent as FastifyBaseLogger & { isLevelEnabled?: (l: string) => boolean }
    // Skipped without a child only when the parent's level decides (a route's logLevel does not).
    if (
      this.real === undefined &&
      this.options.level === undefined &&
      parent.isLevelEnabled &&
      !parent.isLevelEnabled(level)
    )
      return
    ;(this.logger()[level] as LogFn)(...args)
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args)
  }
  error(...args: unknown[]): void {
    this.log('error', args)
  }
  warn(...args: unknown[]): void {
    this.log('warn', args)
  }
  info(...args: unknown[]): void {
    this.log('info', args)
  }
  debug(...args: unknown[]): void {
    this.log('debug', args)
  }
  trace(...args: unknown[]): void {
    this.log('trace', args)
  }
  silent(): void {}

  child(bindings: Bindings = {}, options: ChildLoggerOptions = {}): FastifyBaseLogger {
    return this.logger().child(bindings, options)
  }
}

export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger
}
