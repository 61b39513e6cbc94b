/**
 * Daily usage as a server-rendered SVG bar chart: no script, no front-end build. Accessible: the
 * SVG is an image named by its <title> and described by its <desc> (the range, the total and the
 * busiest day), each bar carries its own <title> (date and count, shown on hover), and pages put
 * the numbers in a table beside it.
 */

export interface ChartDay {
  date: string
  requests: number
}

export interface UsageChartOptions {
  /** Unique on the page: the ids of the title and description derive from it. */
  id: string
  title: string
  days: ChartDay[]
  width?: number
  height?: number
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string,
  )

const count = (n: number) => n.toLocaleString('en')

/** The smallest "round" number (1, 2 or 5 times a power of ten) at or above `n` (at least 1). */
export function niceCeiling(n: number): number {
  if (n <= 1) return 1
  const power = 10 ** Math.floor(Math.log10(n))
  for (const step of [1, 2, 5, 10]) if (step * power >= n) return step * power
  return 10 * power
}

/** What the chart says in words (its <desc>). */
export function describeUsage(days: ChartDay[]): string {
  if (days.length === 0) return 'No days to show.'
  const first = days[0] as ChartDay
  const last = days[days.length - 1] as ChartDay
  const total = days.reduce((sum, day) => sum + day.requests, 0)
  const busiest = days.reduce((max, day) => (day.requests > max.requests ? day : max), first)
  const range = `${days.length} day${days.length === 1 ? '' : 's'} from ${first.date} to ${last.date}`
  if (total === 0) return `No requests in the ${range}.`
  return `${count(total)} requests in the ${range}; the busiest day was ${busiest.date} with ${count(busiest.requests)}.`
}

export function renderUsageChart(opts: UsageChartOptions): string {
  const width = opts.width ?? 640
  const height = opts.height ?? 200
  const left = 48
  const right = 8
  const top = 12
  const bottom = 24
  const plotWidth = width - left - right
  const plotHeight = height - top - bottom
  const max = niceCeiling(Math.max(0, ...opts.days.map((day) => day.requests)))
  const slot = opts.days.length > 0 ? plotWidth / opts.days.length : plotWidth
  const barWidth = Math.max(1, slot * 0.8)
  const id = escapeXml(opts.id)

  const bars = opts.days
    .map((day, i) => {
      const barHeight = (day.requests / max) * plotHeight
      const x = left + i * slot + (slot - barWidth) / 2
      return (
        `<rect class="bar" x="${x.toFixed(2)}" y="${(top + plotHeight - barHeight).toFixed(2)}" ` +
        `width="${barWidth.toFixed(2)}" height="${barHeight.toFixed(2)}" data-date="${day.date}" ` +
        `data-requests="${day.requests}"><title>${day.date}: ${count(day.requests)} requests</title></rect>`
      )
    })
    .join('')

  const first = opts.days[0]?.date ?? ''
  const last = opts.days[opts.days.length - 1]?.date ?? ''
  const axis =
    `<line class="axis" x1="${left}" y1="${top + plotHeight}" x2="${width - right}" y2="${top + plotHeight}"/>` +
    `<line class="grid" x1="${left}" y1="${top}" x2="${width - right}" y2="${top}"/>` +
    `<text class="label" x="${left - 4}" y="${top + 4}" text-anchor="end">${count(max)}</text>` +
    `<text class="label" x="${left - 4}" y="${top + plotHeight}" text-anchor="end">0</text>` +
    `<text class="label" x="${left}" y="${height - 6}">${first}</text>` +
    `<text class="label" x="${width - right}" y="${height - 6}" text-anchor="end">${last}</text>`

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="usage-chart" role="img" ` +
    `viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMidYMid meet" ` +
    `aria-labelledby="${id}-title ${id}-desc">` +
    `<title id="${id}-title">${escapeXml(opts.title)}</title>` +
    `<desc id="${id}-desc">${escapeXml(describeUsage(opts.days))}</desc>` +
    `${axis}${bars}</svg>`
  )
}
