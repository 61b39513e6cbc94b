// The printed tables of a run.
import { settings } from './config.mjs'

const fixed = (digits) => (value) => (typeof value === 'number' ? value.toFixed(digits) : '-')
const int = fixed(0)
const one = fixed(1)
const two = fixed(2)
const percent = (share) => (typeof share === 'number' ? `${(share * 100).toFixed(2)}` : '-')

/**
 * A CPU ratio to two decimals, rounded down, so a ratio printed as its target meets it (0.597
 * is 0.59 against a target of 0.6, not a FAIL that reads 0.60).
 */
export const ratioText = (ratio) =>
  typeof ratio === 'number' ? (Math.floor(ratio * 100 + 1e-9) / 100).toFixed(2) : '-'

/** A Markdown-style table: `columns` are [title, (row) => string, align?]. */
export function table(columns, rows) {
  const cells = rows.map((row) => columns.map(([, get]) => String(get(row))))
  const widths = columns.map(([title], i) =>
    Math.max(title.length, ...cells.map((line) => line[i].length)),
  )
  const pad = (text, i) =>
    columns[i][2] === 'left' ? text.padEnd(widths[i]) : text.padStart(widths[i])
  const line = (values) => `| ${values.map(pad).join(' | ')} |`
  return [
    line(columns.map(([title]) => title)),
    `|${widths.map((w, i) => (columns[i][2] === 'left' ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...cells.map(line),
  ].join('\n')
}

const verdict = (r) => (r.status === 'ERROR' ? `ERROR: ${r.error}` : r.status)

export function scenarioTable(scenarios) {
  return table(
    [
      ['scenario', (s) => s.name, 'left'],
      ['µs/req', (s) => one(s.cpuUs)],
      ['reference', (s) => s.reference, 'left'],
      ['ref µs/req', (s) => one(s.referenceCpuUs)],
      ['ratio', (s) => ratioText(s.ratio)],
      ['target', (s) => `>= ${s.target}`],
      ['req/s', (s) => int(s.rps)],
      ['p50 ms', (s) => one(s.p50)],
      ['p99 ms', (s) => one(s.p99)],
      ['peak RSS MB', (s) => one(s.peakRssMb)],
      ['non-2xx %', (s) => percent(s.failureShare)],
      ['result', verdict, 'left'],
    ],
    scenarios,
  )
}

/** Peak RSS of each service under load (throughput scenarios, heavy pass), against 200 MB. */
export function rssChecks(scenarios, heavy) {
  const byService = new Map()
  for (const s of scenarios) {
    if (typeof s.peakRssMb !== 'number') continue
    byService.set(s.service, Math.max(byService.get(s.service) ?? 0, s.peakRssMb))
  }
  const rows = [...byService].map(([service, peakRssMb]) => ({
    name: `${service} under throughput load`,
    peakRssMb,
  }))
  if (typeof heavy?.peakRssMb === 'number') {
    rows.push({ name: 'data-api under the 8 heavy requests', peakRssMb: heavy.peakRssMb })
  }
  return rows.map((row) => ({
    ...row,
    target: `< ${settings.rssLimitMb} MB`,
    status: row.peakRssMb < settings.rssLimitMb ? 'PASS' : 'FAIL',
  }))
}

export function rssTable(checks) {
  return table(
    [
      ['peak RSS', (c) => c.name, 'left'],
      ['MB', (c) => one(c.peakRssMb)],
      ['target', (c) => c.target],
      ['result', (c) => c.status, 'left'],
    ],
    checks,
  )
}

/** Where prewarmDatabase's `mode` put the pages, in words. */
export function prewarmPlace(mode) {
  return mode === 'buffer' ? "Postgres's shared buffers" : 'the page cache'
}

/** Postgres's huge pages as a run recorded them (runs kept before they were: nothing). */
function hugePagesNote({ hugePages, hostHugePages }) {
  if (hugePages === undefined || !hostHugePages) return ''
  const { totalMb, takenMb } = hostHugePages
  return `; huge_pages ${hugePages}, ${int(takenMb)} of the host's ${int(totalMb)} MB of huge pages taken`
}

/** Where the scale database was prewarmed (runs kept before the mode was recorded: the page cache). */
function prewarmedInto(prewarm) {
  const { mode = 'read', sharedBuffersMb } = prewarm
  const buffers =
    sharedBuffersMb === undefined
      ? ''
      : ` (shared_buffers ${int(sharedBuffersMb)} MB${hugePagesNote(prewarm)})`
  return `${prewarmPlace(mode)}${buffers}`
}

export function scaleTables(scale) {
  const passes = table(
    [
      [`1 client, ${scale.quotes.toLocaleString('en-US')} synthetic quotes`, (p) => p.name, 'left'],
      ['terms', (p) => p.terms],
      ['p50 ms', (p) => two(p.p50)],
      ['p99 ms', (p) => two(p.p99)],
      ['max ms', (p) => two(p.max)],
      // The service's own p99 (its access lines), and that of the time outside it.
      ['service p99', (p) => (p.service ? two(p.service.p99) : '')],
      ['outside p99', (p) => (p.outside ? two(p.outside.p99) : '')],
      ['target', (p) => p.target],
      ['result', verdict, 'left'],
    ],
    scale.passes,
  )
  const kinds = table(
    [
      ['pass', (k) => k.pass, 'left'],
      ['kind', (k) => k.kind, 'left'],
      ['terms', (k) => k.count],
      ['p50 ms', (k) => two(k.p50)],
      ['p99 ms', (k) => two(k.p99)],
      ['max ms', (k) => two(k.max)],
    ],
    scale.passes.flatMap((p) =>
      Object.entries(p.byKind).map(([kind, s]) => ({ pass: p.name, kind, ...s })),
    ),
  )
  const slowest = table(
    [
      ['pass', (t) => t.pass, 'left'],
      ['slowest terms', (t) => JSON.stringify(t.term), 'left'],
      ['kind', (t) => t.kind, 'left'],
      ['ms', (t) => two(t.ms)],
      ['service ms', (t) => (t.serviceMs === undefined ? '' : two(t.serviceMs))],
      ['matches', (t) => t.matches ?? t.status],
    ],
    scale.passes.flatMap((p) => p.slowest.map((t) => ({ pass: p.name, ...t }))),
  )
  const timed = scale.passes.some((p) => p.service)
    ? "Service ms: the service's own time for a request (its access line: from the request's " +
      'arrival to the end of its answer), found by the X-Request-Id the client sends; outside: ' +
      "the client's time less that (HTTP both ways, the client, any wait for the service's " +
      'event loop).\n\n'
    : ''
  const start =
    `Start-up at this scale: /ready answered 200 ${int(scale.readyMs)} ms after the process ` +
    `started; peak RSS during the passes ${one(scale.peakRssMb)} MB.`
  const memory = scale.prewarm
    ? `The database was read into ${prewarmedInto(scale.prewarm)} first: ` +
      `${int(scale.prewarm.mb)} MB in ${one(scale.prewarm.seconds)} s (BENCH_SCALE_PREWARM=0 ` +
      'skips it).'
    : 'The database was not read into memory first (BENCH_SCALE_PREWARM=0).'
  return `${passes}\n\n${kinds}\n\n${slowest}\n\n${timed}${start} ${memory}`
}

/** A /health probe of the heavy pass: its time, when it was sent, and its time in the service. */
export function probeText(probe) {
  const inService = probe.serviceMs === undefined ? '' : ` (${one(probe.serviceMs)} in the service)`
  return `${one(probe.ms)} ms sent at ${int(probe.atMs)} ms${inService}`
}

export function heavyTables(heavy) {
  const requests = table(
    [
      ['request (1 MB each, in parallel)', (r) => r.label, 'left'],
      ['data bytes', (r) => r.dataBytes.toLocaleString('en-US')],
      ['status', (r) => r.status],
      ['time ms', (r) => int(r.ms)],
      ['service ms', (r) => (r.serviceMs === undefined ? '-' : int(r.serviceMs))],
      ['response bytes', (r) => r.responseBytes?.toLocaleString('en-US') ?? '-'],
    ],
    heavy.requests,
  )
  const h = heavy.health
  const health =
    `/health meanwhile: ${h.count} probes, p50 ${one(h.p50)} ms, p99 ${one(h.p99)} ms, ` +
    `max ${one(h.max)} ms, ${h.failures} failed, ${h.skipped} not sent (target ${h.target})` +
    (h.service
      ? `; in the service p99 ${one(h.service.p99)} ms, outside it ${one(h.outside.p99)}`
      : '') +
    (h.slowest?.length ? `; slowest ${h.slowest.map(probeText).join(', ')}` : '') +
    '. ' +
    `The ${heavy.requests.length} requests took ${int(heavy.wallMs)} ms from first sent to last done; ` +
    `peak RSS ${one(heavy.peakRssMb)} MB meanwhile` +
    (typeof heavy.passPeakRssMb === 'number'
      ? ` (${one(heavy.passPeakRssMb)} MB over the whole pass, its sign-up included).`
      : '.')
  const result =
    heavy.status === 'PASS'
      ? 'Result: PASS'
      : `Result: ${heavy.status}: ${heavy.error ?? heavy.reason}`
  return `${requests}\n\n${health}\n${result}`
}
