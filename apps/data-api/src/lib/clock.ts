/** The time, injectable so tests can cross a UTC midnight without waiting for one. */
export type Clock = () => Date

export const systemClock: Clock = () => new Date()

/** `2026-11-22` for the UTC day of `now`. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10)
}

/** The next UTC midnight after `now`. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
}
