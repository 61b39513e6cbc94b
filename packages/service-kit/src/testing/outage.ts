export interface RecoveryOptions {
  /** How many 200s in a row count as recovered. Default 20. */
  streak?: number
  /** How long recovery may take once the dependency is back. Default 5 s. */
  withinMs?: number
}

export interface Recovery {
  /** The statuses answered while the dependency was being restarted. */
  during: number[]
  /**
   * ms from the dependency being back to the first of `streak` 200s in a row; undefined when
   * that did not happen within `withinMs`.
   */
  recoveredInMs: number | undefined
  /** Every status answered after the dependency was back, in order. */
  after: number[]
}

/**
 * Restarts a dependency while `request` keeps being sent (one at a time), then measures how
 * long the service takes to answer 200 `streak` times in a row without being restarted itself.
 * `request` resolves to an HTTP status.
 */
export async function restartUnderLoad(
  restart: () => Promise<void>,
  request: () => Promise<number>,
  { streak = 20, withinMs = 5_000 }: RecoveryOptions = {},
): Promise<Recovery> {
  let restarting = true
  const during: number[] = []
  const load = (async () => {
    while (restarting) during.push(await request())
  })()
  try {
    await restart()
  } finally {
    restarting = false
    await load
  }
  const back = Date.now()
  const after: number[] = []
  let runStartedAt: number | undefined
  let run = 0
  while (Date.now() - back < withinMs) {
    const status = await request()
    after.push(status)
    if (status !== 200) {
      run = 0
      continue
    }
    if (run === 0) runStartedAt = Date.now()
    run += 1
    if (run >= streak) return { during, recoveredInMs: (runStartedAt as number) - back, after }
  }
  return { during, recoveredInMs: undefined, after }
}
