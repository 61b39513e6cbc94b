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
  duration: integer('BENCH_DURATION', 10),
  warmup: integer('BENCH_WARMUP', 2),
  rounds: Math.max(1, integer('BENCH_ROUNDS', 2)),
  connections: Math.max(1, integer('BENCH_CONNECTIONS', 100)),
  scale: integer('BENCH_SCALE', 1_000_000),
  scaleDuration: integer('BENCH_SCALE_DURATION', 10),
  coldTerms: integer('BENCH_COLD_TERMS', 200),
  seed: integer('BENCH_SEED', 42),
  /** Peak RSS ceiling of a service under load (SPEC.md section 5). */
  rssLimitMb: 200,
  /** p99 ceiling of single-client search with BENCH_SCALE quotes (SPEC.md section 5). */
  scaleP99Ms: 20,
}

export const infra = {
  /** Postgres server URL without a database; trust auth as `postgres`. */
  postgres: (process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, ''),
  redis: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
  /** Every Redis key of this run (services and the Redis reference) starts with this. */
  redisPrefix: `bench:${randomBytes(4).toString('hex')}:`,
}

export function databaseUrl(name) {
  return `${infra.postgres}/${name}`
}
