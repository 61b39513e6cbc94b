// Small statistics helpers shared by the measurements and the reports.

/** p-th percentile (nearest rank) of ascending `sorted`. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return undefined
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]
}

/** The median of the numbers in `values` (others are ignored); undefined when there are none. */
export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b)
  if (sorted.length === 0) return undefined
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** { count, p50, p99, max } of `values` (milliseconds, say). */
export function latencySummary(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1),
  }
}
