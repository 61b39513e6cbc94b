// Days after today: Redis expires keys by its own, real clock, so injected days must be future.
const DAY = 86_400_000
const today = Date.UTC(
  new Date().getUTCFullYear(),
  new Date().getUTCMonth(),
  new Date().getUTCDate(),
)

/** The time `time` (HH:MM:SS, UTC) on the day `days` after today. */
export const at = (days: number, time: string) =>
  new Date(`${new Date(today + days * DAY).toISOString().slice(0, 10)}T${time}Z`)

/** `YYYY-MM-DD` of the day `days` after today. */
export const dayName = (days: number) => new Date(today + days * DAY).toISOString().slice(0, 10)
