// Scale scenario: search latency for a single client with BENCH_SCALE synthetic quotes loaded,
// and a cold-cache pass (first query of many distinct terms). The database is kept between runs.
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { databaseUrl, paths, settings } from './config.mjs'
import { quotesInventory, recreateDatabase } from './database.mjs'
import { failed, load, percentile, sampleRss } from './measure.mjs'
import { counts, rare as rareSeedTerm } from './scenarios/quotes.mjs'
import { runProcess, stopProcess } from './servers.mjs'
import { startService } from './services.mjs'
import { randomTerms } from './terms.mjs'

export const SCALE_DATABASE = 'bench_quotes_scale'
const COMMON = 'love'
const json = { accept: 'application/json' }

/** Makes sure SCALE_DATABASE holds exactly `n` synthetic quotes (and its index), else reloads. */
async function ensureCorpus(n, log) {
  const inventory = await quotesInventory(SCALE_DATABASE)
  if (inventory && inventory.synthetic === n && inventory.seed > 0 && inventory.index) {
    log(`  ${SCALE_DATABASE} already holds ${n} synthetic quotes: kept`)
    return { reused: true, inventory }
  }
  log(`  ${SCALE_DATABASE}: ${JSON.stringify(inventory ?? 'missing')}; recreating and loading ${n}`)
  await recreateDatabase(SCALE_DATABASE)
  const started = performance.now()
  await runProcess({
    name: 'load-synthetic',
    args: [join(paths.quotesApp, 'dist', 'scripts', 'load-synthetic.js'), String(n)],
    env: { DATABASE_URL: databaseUrl(SCALE_DATABASE), LOG_LEVEL: 'info' },
    logFile: join(paths.results, 'load-synthetic.log'),
  })
  const loadSeconds = (performance.now() - started) / 1000
  log(`  loaded in ${loadSeconds.toFixed(1)} s`)
  return { reused: false, loadSeconds, inventory: await quotesInventory(SCALE_DATABASE) }
}

async function search(url, term) {
  const started = performance.now()
  const response = await fetch(`${url}/api/search?term=${encodeURIComponent(term)}`, {
    headers: json,
  })
  const text = await response.text()
  const ms = performance.now() - started
  const matches = response.ok ? JSON.parse(text).total_quotes : undefined
  return { term, status: response.status, ms, matches }
}

/** One client, `settings.scaleDuration` seconds, no warm-up: the first (uncached) query counts. */
async function singleClient(service, label, term) {
  const summary = await load(
    { url: `${service.url}/api/search?term=${encodeURIComponent(term)}`, headers: json },
    { connections: 1, duration: settings.scaleDuration, exact: true },
  )
  const { matches } = await search(service.url, term)
  const ok = !failed(summary)
  return {
    label,
    term,
    matches,
    ...summary,
    target: `p99 < ${settings.scaleP99Ms} ms`,
    status: !ok ? 'ERROR' : summary.p99 < settings.scaleP99Ms ? 'PASS' : 'FAIL',
  }
}

/** Distinct never-searched terms, one request each, in sequence: first-query latency. */
async function coldPass(service, terms) {
  const results = []
  for (const term of terms) results.push(await search(service.url, term))
  const times = results.map((r) => r.ms).sort((a, b) => a - b)
  const bad = results.filter((r) => r.status < 200 || r.status > 299)
  return {
    terms: results.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times.at(-1),
    non2xx: bad.length,
    slowest: [...results].sort((a, b) => b.ms - a.ms).slice(0, 5),
    status: bad.length > 0 ? 'ERROR' : 'INFO',
  }
}

export async function runScale({ log }) {
  const n = settings.scale
  const corpus = await ensureCorpus(n, log)
  const rare = rareSeedTerm.term
  const service = await startService('quotes', {
    instance: 'quotes-scale',
    database: SCALE_DATABASE,
    recreate: false,
  })
  const rss = sampleRss(service.pid)
  try {
    const searches = []
    for (const [label, term] of [
      ['common', COMMON],
      ['rare', rare],
    ]) {
      const result = await singleClient(service, label, term)
      log(`  ${label} "${term}" (${result.matches} matches): p99 ${result.p99?.toFixed(2)} ms`)
      searches.push(result)
    }
    const terms = randomTerms(counts, settings.coldTerms, settings.seed, [COMMON, rare])
    const cold = await coldPass(service, terms)
    log(
      `  cold pass, ${cold.terms} terms: p50 ${cold.p50?.toFixed(2)} ms, max ${cold.max?.toFixed(2)}`,
    )
    const memory = rss.stop()
    return {
      database: SCALE_DATABASE,
      quotes: n,
      ...corpus,
      searches,
      cold,
      peakRssMb: memory.peakRssMb,
      hwmMb: memory.hwmMb,
    }
  } finally {
    rss.stop()
    await stopProcess(service.handle)
  }
}
