// Each scenario's latest kept result against its previous one and its best one:
//   pnpm bench --compare      or      node bench/src/compare.mjs
// "latest": the most recent run that measured the scenario (runs with --only measure a few);
// "previous": the most recent run before it with a usable figure (ERROR results do not count);
// "best": the best figure of all runs before it (lowest µs/req and latency, highest ratio).
import { fileURLToPath } from 'node:url'
import { ratioText, table } from './report.mjs'
import { readRuns } from './results.mjs'
import { catalogue } from './scenarios/index.mjs'

const usable = (value) => typeof value === 'number' && Number.isFinite(value)

/** Latency-like figures of a run (lower is better), by name; undefined for ERROR results. */
function latencies(run) {
  const out = {}
  const ok = (result) => result && result.status !== 'ERROR'
  for (const p of run.scale?.passes ?? []) out[`${p.name} p99 ms`] = ok(p) ? p.p99 : undefined
  if (run.scale) out['scale start-up to /ready ms'] = run.scale.readyMs
  if (run.heavy) {
    out['heavy/parallel-1mb /health p99 ms'] = ok(run.heavy) ? run.heavy.health.p99 : undefined
    out['heavy/parallel-1mb all 8 done ms'] = ok(run.heavy) ? run.heavy.wallMs : undefined
  }
  return out
}

const scenarioOf = (run, name) => run.scenarios?.find((s) => s.name === name)

/**
 * `value` against the same figure (`figureOf(run)`) in the most recent of `earlier` that has it
 * and the best of them: { previous, best } as "figure (delta)" cells, and the previous run's time.
 */
function against(earlier, figureOf, value, { higherIsBetter = false, digits = 2 } = {}) {
  const cell = (base) => {
    if (!usable(base) || !usable(value)) return '-'
    const delta = higherIsBetter
      ? (value - base).toFixed(2)
      : `${(((value - base) / base) * 100).toFixed(1)} %`
    return `${base.toFixed(digits)} (${delta.startsWith('-') ? delta : `+${delta}`})`
  }
  const previous = earlier.findLast((run) => usable(figureOf(run)))
  const past = earlier.map(figureOf).filter(usable)
  const best = past.length === 0 ? undefined : (higherIsBetter ? Math.max : Math.min)(...past)
  return {
    previous: cell(previous && figureOf(previous)),
    best: cell(best),
    previousAt: previous?.startedAt ?? '-',
  }
}

/** The latest run holding `has(run)`, and the runs before it. */
function latestWith(runs, has) {
  const index = runs.findLastIndex(has)
  return index < 0 ? undefined : { run: runs[index], earlier: runs.slice(0, index) }
}

const fixed = (digits) => (value) => (usable(value) ? value.toFixed(digits) : '-')
const section = (columns, rows) => (rows.length > 0 ? ['', table(columns, rows)] : [])

/** The comparison as text; `runs` oldest first. */
export function compareRuns(runs) {
  if (runs.length === 0) return 'No kept runs in bench/results yet: run pnpm bench first.'
  const scenarios = []
  for (const { name } of catalogue()) {
    const found = latestWith(runs, (run) => scenarioOf(run, name))
    if (!found) continue
    const s = scenarioOf(found.run, name)
    const ok = (run) => {
      const r = scenarioOf(run, name)
      return r?.status === 'ERROR' ? undefined : r
    }
    scenarios.push({
      name,
      status: s.status,
      at: found.run.startedAt,
      cpuUs: s.status === 'ERROR' ? undefined : s.cpuUs,
      ratio: s.status === 'ERROR' ? undefined : s.ratio,
      us: against(found.earlier, (run) => ok(run)?.cpuUs, s.cpuUs, { digits: 1 }),
      r: against(found.earlier, (run) => ok(run)?.ratio, s.ratio, { higherIsBetter: true }),
    })
  }
  const names = [...new Set(runs.flatMap((run) => Object.keys(latencies(run))))]
  const figures = names.map((name) => {
    const found = latestWith(runs, (run) => name in latencies(run))
    const value = latencies(found.run)[name]
    return {
      name,
      value,
      at: found.run.startedAt,
      ...against(found.earlier, (run) => latencies(run)[name], value),
    }
  })
  return [
    `${runs.length} kept run(s), the latest of ${runs.at(-1).startedAt}. Each row: the latest run ` +
      'that measured it, against the previous one and the best one before it.',
    "Cells: the earlier figure (the latest one's difference to it: µs/req and latencies in %, " +
      'ratios in absolute terms). Lower µs/req and latencies, higher ratios are better.',
    ...section(
      [
        ['scenario', (r) => r.name, 'left'],
        ['µs/req', (r) => fixed(1)(r.cpuUs)],
        ['previous', (r) => r.us.previous],
        ['best', (r) => r.us.best],
        ['ratio', (r) => ratioText(r.ratio)],
        ['previous', (r) => r.r.previous],
        ['best', (r) => r.r.best],
        ['result', (r) => r.status, 'left'],
        ['run', (r) => r.at, 'left'],
        ['previous run', (r) => r.us.previousAt, 'left'],
      ],
      scenarios,
    ),
    ...section(
      [
        ['figure', (r) => r.name, 'left'],
        ['latest', (r) => fixed(2)(r.value)],
        ['previous', (r) => r.previous],
        ['best', (r) => r.best],
        ['run', (r) => r.at, 'left'],
        ['previous run', (r) => r.previousAt, 'left'],
      ],
      figures,
    ),
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(compareRuns(await readRuns()))
}
