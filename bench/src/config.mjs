// Settings of one benchmark run, read once from the environment (see README.md).
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

/** A non-negative integer from the environment, or the default. */
function integer(name, fallback) {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`)
  }
  return value
}

export const paths = {
  bench: join(here, '..'),
  src: here,
  results: join(here, '..', 'results'),
  repo: join(here, '..', '..'),
  quotesApp: join(here, '..', '..', 'apps', 'quotes'),
}

export const settings = {
  duration: Math.max(1, integer('BENCH_DURATION', 10)),
  warmup: integer('BENCH_WARMUP', 2),
  /** Warm-up of each side's first round (its code is not compiled for this request yet). */
  firstWarmup: integer('BENCH_FIRST_WARMUP', 8),
  rounds: Math.max(1, integer('BENCH_ROUNDS', 3)),
  threads: Math.max(1, integer('BENCH_THREADS', 1)),
  connections: Math.max(1, integer('BENCH_CONNECTIONS', 50)),
  /** Share of non-2xx responses (and socket errors) above which a measurement is an ERROR. */
  maxNon2xxShare: 0.01,
  scale: integer('BENCH_SCALE', 1_000_000),
  /** The kept database of the scale passes (another name keeps branches' schemas apart). */
  scaleDatabase: process.env.BENCH_SCALE_DATABASE || 'bench_quotes_scale',
  /**
   * 1: read the scale database's tables and indexes into memory before the scale passes
   * (pg_prewarm: into Postgres's shared buffers when they can hold them, else the host's page
   * cache), so they measure the service with its data in memory, as a sized deployment keeps it;
   * 0: as the host left them (possibly on disk).
   */
  scalePrewarm: integer('BENCH_SCALE_PREWARM', 1) > 0,
  coldTerms: Math.max(10, integer('BENCH_COLD_TERMS', 300)),
  shortTerms: Math.max(2, integer('BENCH_SHORT_TERMS', 30)),
  heavyBytes: Math.max(1, integer('BENCH_HEAVY_BYTES', 1_000_000)),
  /** Seconds each heavy request may take before it counts as unanswered. */
  heavyTimeout: Math.max(1, integer('BENCH_HEAVY_TIMEOUT', 120)),
  seed: integer('BENCH_SEED', 42),
  /** Extra `node` options for the services under test, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`. */
  nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
  /** Peak RSS ceiling of a service under load (SPEC.md section 5). */
  rssLimitMb: 200,
  /** p99 ceiling of a never-searched term with BENCH_SCALE quotes (SPEC.md section 5). */
  coldP99Ms: 20,
  /** p99 ceiling of the 1-2 character terms at scale ("fast"; no SPEC.md figure). */
  shortP99Ms: 50,
  /** p99 ceiling of the filtered random quote and author pages at scale (issue 12: "fast"). */
  catalogP99Ms: 20,
  /** p99 ceiling of /health while the heavy requests run (SPEC.md section 5). */
  healthP99Ms: 50,
}

/** Random per run: names this run's Redis keys and databases, so runs side by side never meet. */
export const runId = randomBytes(4).toString('hex')

export const infra = {
  /** Postgres server URL without a database; trust auth as `postgres`. */
  postgres: (process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, ''),
  redis: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
  /** Every Redis key of this run (services and the Redis reference) starts with this. */
  redisPrefix: `bench:${runId}:`,
}

export function databaseUrl(name) {
  return `${infra.postgres}/${name}`
}
