// Everything the benchmark can run, in order, by name (`--list`, `--only`). Throughput scenarios
// are declared in the service modules; the scale and heavy-input passes are run by their own
// modules (scale.mjs, heavy.mjs) and listed here by name.
import { settings } from '../config.mjs'
import dataApi from './data-api.mjs'
import quotes from './quotes.mjs'

export const throughput = [...quotes, ...dataApi]

export const passes = [
  {
    name: 'scale/cold-search',
    title: `${settings.coldTerms} never-searched terms, once each, 1 client, at BENCH_SCALE quotes`,
    target: `p99 < ${settings.coldP99Ms} ms`,
  },
  {
    name: 'scale/short-terms',
    title: `${settings.shortTerms} never-searched 1-2 character terms, at BENCH_SCALE quotes`,
    target: `p99 < ${settings.shortP99Ms} ms`,
  },
  {
    name: 'scale/filtered-random',
    title: `${settings.coldTerms} distinct filtered random quotes (author, tag, length, mixed), 1 client, at BENCH_SCALE quotes`,
    target: `p99 < ${settings.catalogP99Ms} ms`,
  },
  {
    name: 'scale/author-pages',
    title: `${settings.coldTerms} distinct author pages and author lists, 1 client, at BENCH_SCALE quotes`,
    target: `p99 < ${settings.catalogP99Ms} ms`,
  },
  {
    name: 'heavy/parallel-1mb',
    title: '8 parallel 1 MB ENTERPRISE POSTs, one per feature, /health probed meanwhile',
    target: `all 2xx, /health p99 < ${settings.healthP99Ms} ms`,
  },
]

/** Every runnable name with its title and target, in run order. */
export function catalogue() {
  return [
    ...throughput.map((s) => ({
      name: s.name,
      title: s.title,
      target: `CPU ratio >= ${s.target} of ${s.reference}`,
    })),
    ...passes,
  ]
}

/**
 * The names `only` selects: each entry is a whole name or a prefix of names (`quotes`,
 * `quotes/search`), case-insensitive. No entry selects everything. Throws on an entry that
 * selects nothing.
 */
export function select(only = []) {
  const names = catalogue().map((item) => item.name)
  if (only.length === 0) return new Set(names)
  const chosen = new Set()
  for (const entry of only) {
    const wanted = entry.toLowerCase()
    const hits = names.filter((name) => name.toLowerCase().startsWith(wanted))
    if (hits.length === 0) {
      throw new Error(`--only ${entry}: no scenario has that name or prefix (see --list)`)
    }
    for (const name of hits) chosen.add(name)
  }
  return chosen
}
