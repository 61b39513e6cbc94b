/*
 * Work counters for the linearity tests: how much text each engine (an ICU segmenter,
 * compromise, libphonenumber, a regular-expression pass...) was handed, in how many calls,
 * and the largest single call. A feature is linear when the total it hands out grows in
 * proportion to its input and every call into an engine whose cost grows faster than its input
 * is bounded in size. Off unless a test turns it on: then each call costs one Map look-up.
 */

export interface EngineWork {
  calls: number
  /** Code units (or items, where the engine says so) handed to the engine in all. */
  units: number
  /** The most handed to it in one call. */
  largest: number
}

class Meter {
  enabled = false
  private readonly engines = new Map<string, EngineWork>()

  add(engine: string, units: number): void {
    // Stryker disable next-line ConditionalExpression: what is added while off is cleared by the next measure() before anyone reads it
    if (!this.enabled) return
    const work = this.engines.get(engine) ?? { calls: 0, units: 0, largest: 0 }
    work.calls++
    work.units += units
    work.largest = Math.max(work.largest, units)
    this.engines.set(engine, work)
  }

  /** Runs `task` with the counters on and returns what it handed to each engine. */
  measure(task: () => void): Record<string, EngineWork> {
    this.engines.clear()
    this.enabled = true
    try {
      task()
    } finally {
      this.enabled = false
    }
    return Object.fromEntries(this.engines)
  }
}

export const meter = new Meter()
