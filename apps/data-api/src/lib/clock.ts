/** The time, injectable so tests can cross a UTC midnight without waiting for one. */
export type Clock = () => Date

export const systemClock: Clock = () => new Date()

export const DAY_MS = 86_400_000

/** `2026-11-22` for the UTC day of `now`. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10)
}

/** The next UTC midnight after `now`. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
}

/** The UTC midnight that starts `day` (`YYYY-MM-DD`). */
export function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`)
}

/** The day `days` after `day` (before, when negative). */
export function addDays(day: string, days: number): string {
  return utcDay(new Date(dayStart(day).getTime() + days * DAY_MS))
}

/** Every day from `from` to `to`, both included, in order. */
export function daysFrom(from: string, to: string): string[] {
  const out: string[] = []
  for (let day = from; day <= to; day = addDays(day, 1)) out.push(day)
  return out
}

/** True for a real calendar day written `YYYY-MM-DD` (not `2026-02-30`). */
export function isDay(text: string): boolean {
  // Stryker disable next-line Regex: the round trip below refuses what the anchors would
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(dayStart(text).getTime())
    ? utcDay(dayStart(text)) === text
    : false
}
