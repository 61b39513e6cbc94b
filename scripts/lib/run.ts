/**
 * The frame of a scripted proof (pnpm test:compose, pnpm test:scale): timestamped log lines,
 * named steps whose failures say which step failed and why, figures collected for the summary,
 * and clean-up that runs once on success, failure or Ctrl-C.
 */

/** A failed check: its message is what the reader needs, without a stack trace. */
export class Failure extends Error {
  override name = 'Failure'
}

/** Throws a Failure with `message` unless `condition` holds. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Failure(message)
}

/** Milliseconds as seconds with one decimal: "12.3 s". */
export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** An integer with thousands separators: "12,345". */
export const count = (n: number) => n.toLocaleString('en-US')

export class Run {
  private readonly started = performance.now()
  private readonly figures: Array<[string, string]> = []
  private readonly cleanUps: Array<() => Promise<void>> = []
  private stepNumber = 0

  constructor(readonly name: string) {}

  log(message: string): void {
    const at = ((performance.now() - this.started) / 1000).toFixed(1).padStart(6)
    process.stderr.write(`[${this.name} ${at}s] ${message}\n`)
  }

  /** A figure for the summary at the end (and the log now). */
  figure(label: string, value: string): void {
    this.figures.push([label, value])
    this.log(`  = ${label}: ${value}`)
  }

  /** Runs `fn` as step N; a failure inside names the step. */
  async step<T>(title: string, fn: () => Promise<T>): Promise<T> {
    this.stepNumber += 1
    const label = `${this.stepNumber}. ${title}`
    this.log(label)
    const t0 = performance.now()
    try {
      const result = await fn()
      this.log(`   ${label}: done in ${secs(performance.now() - t0)}`)
      return result
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      throw new Failure(`step "${label}" failed: ${reason}`, { cause: error })
    }
  }

  /** Registers clean-up, run in reverse order by `main` whatever happens. */
  onCleanUp(fn: () => Promise<void>): void {
    this.cleanUps.push(fn)
  }

  private async cleanUp(): Promise<boolean> {
    let ok = true
    for (const fn of this.cleanUps.splice(0).reverse()) {
      try {
        await fn()
      } catch (error) {
        ok = false
        this.log(`clean-up failed: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    return ok
  }

  /**
   * Runs the proof: `body`, then the clean-ups, then the summary; exits 0 only when both the
   * body and the clean-ups succeeded. SIGINT/SIGTERM run the clean-ups too, then exit 130/143.
   */
  async main(body: () => Promise<void>, onFailure?: () => Promise<void>): Promise<never> {
    let interrupted = false
    const interrupt = (signal: NodeJS.Signals) => {
      if (interrupted) return
      interrupted = true
      this.log(`${signal}: cleaning up`)
      void this.cleanUp().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143))
    }
    process.on('SIGINT', interrupt)
    process.on('SIGTERM', interrupt)
    let failure: unknown
    try {
      await body()
    } catch (error) {
      failure = error
      this.log(`FAIL: ${error instanceof Error ? error.message : String(error)}`)
      if (!(error instanceof Failure) && error instanceof Error && error.stack)
        this.log(error.stack)
      if (onFailure && !interrupted) {
        await onFailure().catch((error) => this.log(`could not collect diagnostics: ${error}`))
      }
    }
    if (interrupted) return new Promise<never>(() => {})
    const cleaned = await this.cleanUp()
    const passed = failure === undefined && cleaned
    const width = Math.max(...this.figures.map(([label]) => label.length), 0)
    const lines = [
      '',
      `================ pnpm ${this.name}: ${passed ? 'PASSED' : 'FAILED'} ================`,
      ...this.figures.map(([label, value]) => `${label.padEnd(width)}  ${value}`),
      `total: ${secs(performance.now() - this.started)}`,
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
    process.exit(passed ? 0 : 1)
  }
}
