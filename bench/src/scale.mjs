// Scale passes: search at BENCH_SCALE synthetic quotes on a freshly started quotes service, one
// client, each term sent once and never searched before on that process (cold-search: words,
// surnames, phrases, misses; short-terms: 1-2 characters). Also the time from process start to
// /ready at that scale. The database is kept between runs (loading a million quotes and building
// their search indexes took 9-11 minutes on 2 cores).
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import { authorPageRequests, filteredRandomRequests } from './catalog-requests.mjs'
import { databaseUrl, paths, settings } from './config.mjs'
import { prewarmDatabase, quotesInventory, recreateDatabase } from './database.mjs'
import { hostHugePages, sampleRss } from './proc.mjs'
import { prewarmPlace } from './report.mjs'
import { runProcess, stopProcess } from './servers.mjs'
import { accessTimes, withServiceTimes } from './service-times.mjs'
import { startService } from './services.mjs'
import { latencySummary } from './stats.mjs'
import { coldTerms, shortTerms } from './terms.mjs'

export const SCALE_DATABASE = settings.scaleDatabase
const SEARCH_TIMEOUT_MS = 60_000
// `drawn`: terms drawn from the seed corpus before the service starts (drawing them allocates
// tens of MB, whose collection then runs while the service starts rather than beside the pass);
// `askedOf`: requests built from what the running service lists.
const PASSES = [
  { name: 'scale/cold-search', drawn: () => coldTerms(), p99Ms: settings.coldP99Ms },
  { name: 'scale/short-terms', drawn: () => shortTerms(), p99Ms: settings.shortP99Ms },
  {
    name: 'scale/filtered-random',
    askedOf: (service) => filteredRandomRequests(service),
    p99Ms: settings.catalogP99Ms,
  },
  {
    name: 'scale/author-pages',
    askedOf: (service) => authorPageRequests(service),
    p99Ms: settings.catalogP99Ms,
  },
]

/** The name of the quotes service's newest migration (as its migrations table records it). */
function newestMigration() {
  const names = readdirSync(join(paths.quotesApp, 'migrations')).filter((f) => f.endsWith('.sql'))
  return names
    .sort()
    .at(-1)
    ?.replace(/\.sql$/, '')
}

/**
 * Makes sure SCALE_DATABASE holds exactly `n` synthetic quotes (and its index), migrated by this
 * build, else reloads.
 */
async function ensureCorpus(n, progress) {
  const inventory = await quotesInventory(SCALE_DATABASE)
  if (
    inventory &&
    inventory.synthetic === n &&
    inventory.seed > 0 &&
    inventory.index &&
    inventory.catalog &&
    inventory.migration === newestMigration()
  ) {
    progress(`scale: ${SCALE_DATABASE} already holds ${n} synthetic quotes: kept`)
    return { reused: true, inventory }
  }
  progress(
    `scale: ${SCALE_DATABASE} holds ${JSON.stringify(inventory ?? 'nothing')}; ` +
      `recreating it and loading ${n} synthetic quotes (about 10 minutes for a million on 2 cores)`,
  )
  await recreateDatabase(SCALE_DATABASE)
  const started = performance.now()
  await runProcess({
    name: 'load-synthetic',
    args: [join(paths.quotesApp, 'dist', 'scripts', 'load-synthetic.js'), String(n)],
    env: { DATABASE_URL: databaseUrl(SCALE_DATABASE), LOG_LEVEL: 'info' },
    logFile: join(paths.results, 'load-synthetic.log'),
  })
  const loadSeconds = (performance.now() - started) / 1000
  progress(`scale: loaded in ${loadSeconds.toFixed(1)} s`)
  return { reused: false, loadSeconds, inventory: await quotesInventory(SCALE_DATABASE) }
}

/**
 * Sends each request once, in sequence, from a worker thread of its own (sequential-client.mjs:
 * the main thread's heap and its collector stay out of the timings); resolves to
 * [{ term, kind, status, ms, matches }].
 */
function sendInSequence(url, requests) {
  const worker = new Worker(join(paths.src, 'sequential-client.mjs'), {
    workerData: { url, requests, timeoutMs: SEARCH_TIMEOUT_MS },
  })
  return new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  }).finally(() => worker.terminate())
}

/**
 * Sends each term once, in sequence; latencies overall and by kind, the five slowest terms, and
 * every term's in the order sent.
 */
async function pass(service, { name, terms, p99Ms, progress }) {
  progress(`${name}: ${terms.length} terms, one request each`)
  // Each with an id of its own, which the service's access line carries (service-times.mjs).
  const prefix = name.replace('scale/', '')
  const requests = terms.map((term, i) => ({ ...term, id: `${prefix}-${i + 1}` }))
  const results = await sendInSequence(service.url, requests)
  const failures = results.filter((r) => typeof r.status !== 'number' || r.status > 299)
  const byKind = {}
  for (const kind of new Set(results.map((r) => r.kind))) {
    byKind[kind] = latencySummary(results.filter((r) => r.kind === kind).map((r) => r.ms))
  }
  const summary = latencySummary(results.map((r) => r.ms))
  const result = {
    name,
    terms: results.length,
    ...summary,
    byKind,
    slowest: [...results].sort((a, b) => b.ms - a.ms).slice(0, 5),
    // Every term in the order sent, kept in the run's file: where in the pass the slow ones fell.
    sent: results.map(({ term, kind, ms, status, id }) => ({ term, kind, ms, status, id })),
    failures: failures.length,
    failed: failures.slice(0, 10),
    target: `p99 < ${p99Ms} ms`,
  }
  if (failures.length > 0) {
    result.status = 'ERROR'
    result.error = `${failures.length} searches failed, e.g. ${JSON.stringify(failures[0])}`
  } else result.status = summary.p99 < p99Ms ? 'PASS' : 'FAIL'
  progress(
    `${name}: p50 ${summary.p50.toFixed(2)} ms, p99 ${summary.p99.toFixed(2)} ms, ` +
      `max ${summary.max.toFixed(2)} ms: ${result.status}`,
  )
  return result
}

/** Runs the scale passes `selected` names (scale/cold-search, scale/short-terms). */
export async function runScale({ selected, progress }) {
  const n = settings.scale
  const corpus = await ensureCorpus(n, progress)
  let prewarm
  if (settings.scalePrewarm) {
    // A host may have dropped the database from its page cache since it was last read (a virtual
    // machine's memory balloon does within minutes): the passes would then measure its disk.
    const started = performance.now()
    const { mb, mode, sharedBuffersMb, hugePages } = await prewarmDatabase(SCALE_DATABASE)
    prewarm = {
      mb: Math.round(mb),
      seconds: (performance.now() - started) / 1000,
      mode,
      sharedBuffersMb: Math.round(sharedBuffersMb),
      // Shared buffers in huge pages spare each Postgres process a page fault per 4 KB it first
      // touches: a quarter off the cold pass's p99 on a VM (bench/README.md). Read here, as the
      // host of a local Postgres shows them.
      hugePages,
      hostHugePages: hostHugePages(),
    }
    progress(
      `scale: read its tables and indexes into ${prewarmPlace(mode)} first (pg_prewarm, ${prewarm.mb} MB in ` +
        `${prewarm.seconds.toFixed(1)} s; shared_buffers ${prewarm.sharedBuffersMb} MB; ` +
        'BENCH_SCALE_PREWARM=0 skips this)',
    )
  }
  const selectedPasses = PASSES.filter((p) => selected.has(p.name))
  const drawn = new Map()
  for (const p of selectedPasses) if (p.drawn) drawn.set(p.name, await p.drawn())
  progress('scale: starting a fresh quotes service on it (nothing searched yet)')
  const service = await startService('quotes', {
    instance: 'quotes-scale',
    database: SCALE_DATABASE,
    recreate: false,
  })
  progress(`scale: ready ${service.readyMs.toFixed(0)} ms after the process started`)
  const rss = sampleRss(service.pid)
  const passes = []
  let memory
  try {
    for (const { name, askedOf, p99Ms } of selectedPasses) {
      const terms = drawn.get(name) ?? (await askedOf(service))
      passes.push(await pass(service, { name, terms, p99Ms, progress }))
    }
    memory = rss.stop()
  } finally {
    rss.stop()
    await stopProcess(service.handle)
  }
  // Read once the service has stopped: its log then holds every access line.
  const times = await accessTimes(service.logFile)
  return {
    database: SCALE_DATABASE,
    quotes: n,
    ...corpus,
    readyMs: service.readyMs,
    prewarm: prewarm ?? null,
    passes: passes.map((p) => withServiceTimes(p, times)),
    peakRssMb: memory.peakRssMb,
    hwmMb: memory.hwmMb,
  }
}
