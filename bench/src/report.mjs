// The printed tables and the JSON files of a run.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { paths, settings } from './config.mjs'

const fixed = (digits) => (value) => (typeof value === 'number' ? value.toFixed(digits) : '-')
const int = fixed(0)
const one = fixed(1)
const two = fixed(2)

/** A plain-text table: `columns` are [title, (row) => string, align?]. */
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

export function scenarioTable(scenarios) {
  return table(
    [
      ['scenario', (s) => s.name, 'left'],
      ['req/s', (s) => int(s.rps)],
      ['p50 ms', (s) => one(s.p50)],
      ['p99 ms', (s) => one(s.p99)],
      ['peak RSS MB', (s) => one(s.peakRssMb)],
      ['VmHWM MB', (s) => one(s.hwmMb)],
      ['reference', (s) => s.reference, 'left'],
      ['ref req/s', (s) => int(s.referenceRps)],
      ['ratio', (s) => two(s.ratio)],
      ['target', (s) => (s.target === undefined ? 'information' : `>= ${s.target}`)],
      ['result', (s) => s.status, 'left'],
    ],
    scenarios,
  )
}

/** Peak RSS of each service over all its scenarios, against the 200 MB ceiling. */
export function rssChecks(scenarios) {
  const byService = new Map()
  for (const s of scenarios) {
    if (typeof s.peakRssMb !== 'number') continue
    byService.set(s.service, Math.max(byService.get(s.service) ?? 0, s.peakRssMb))
  }
  return [...byService].map(([service, peakRssMb]) => ({
    name: `${service} peak RSS under load`,
    peakRssMb,
    target: `< ${settings.rssLimitMb} MB`,
    status: peakRssMb < settings.rssLimitMb ? 'PASS' : 'FAIL',
  }))
}

export function rssTable(checks) {
  return table(
    [
      ['check', (c) => c.name, 'left'],
      ['peak RSS MB', (c) => one(c.peakRssMb)],
      ['target', (c) => c.target],
      ['result', (c) => c.status, 'left'],
    ],
    checks,
  )
}

export function scaleTable(scale) {
  const rows = [
    ...scale.searches.map((s) => ({ ...s, name: `search ${s.label} "${s.term}"` })),
    {
      ...scale.cold,
      name: `cold cache: ${scale.cold.terms} distinct terms, 1 request each`,
      matches: undefined,
      rps: undefined,
      target: 'information',
    },
  ]
  return table(
    [
      [`1 client, ${scale.quotes.toLocaleString('en-US')} synthetic quotes`, (r) => r.name, 'left'],
      ['matches', (r) => r.matches ?? '-'],
      ['req/s', (r) => int(r.rps)],
      ['p50 ms', (r) => two(r.p50)],
      ['p99 ms', (r) => two(r.p99)],
      ['max ms', (r) => two(r.max)],
      ['target', (r) => r.target, 'left'],
      ['result', (r) => r.status, 'left'],
    ],
    rows,
  )
}

/** Writes results/latest.json and a timestamped copy; returns the copy's path. */
export async function writeResults(report) {
  await mkdir(paths.results, { recursive: true })
  const text = `${JSON.stringify(report, null, 2)}\n`
  const stamped = join(paths.results, `${report.startedAt.replace(/:/g, '-')}.json`)
  await writeFile(join(paths.results, 'latest.json'), text)
  await writeFile(stamped, text)
  return stamped
}
