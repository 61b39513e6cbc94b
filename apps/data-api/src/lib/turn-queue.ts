/**
 * Runs jobs in order, one per turn of the event loop: each in its own `setImmediate`, the next
 * one scheduled only when the previous has run. Between two jobs the loop polls its sockets, so
 * a request that arrives while several long jobs wait (eight 1 MB bodies to parse, each a few
 * milliseconds of `JSON.parse` and the validation and hand-off that follow it) is answered after
 * at most one of them, not all: `/health` and `GET` stay responsive under heavy input (SPEC
 * section 3). A job's continuations (what awaits its promise) run right after it, in the same
 * turn, as microtasks do.
 */
export class TurnQueue {
  private readonly jobs: Array<() => void> = []
  private scheduled = false

  /**
   * Runs `job` (synchronous work: a promise it returned would settle outside its turn) in a later
   * turn, after every job queued before it; settles with its outcome.
   */
  run<T>(job: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push(() => {
        try {
          resolve(job())
        } catch (error) {
          reject(error)
        }
      })
      this.schedule()
    })
  }

  /** Jobs queued and not yet run. */
  get size(): number {
    return this.jobs.length
  }

  private schedule(): void {
    if (this.scheduled || this.jobs.length === 0) return
    this.scheduled = true
    setImmediate(this.next)
  }

  private readonly next = (): void => {
    this.scheduled = false
    // schedule() only schedules a turn while a job waits.
    const job = this.jobs.shift() as () => void
    job()
    this.schedule()
  }
}
