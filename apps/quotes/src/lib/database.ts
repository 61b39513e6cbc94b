import { type MigrateOptions, migrate } from '@repo/service-kit'
import pg from 'pg'
import { paths } from '../paths.js'
import { readSeedFile, type SeedOutcome, seedQuotes } from './seed.js'

/**
 * Brings the database to the current schema and seeds it: on first start only (the default),
 * or again from the file with `onlyIfEmpty: false` (the seed script). Safe to run from several
 * replicas at once (advisory transaction locks inside, so also through a transaction-mode
 * pooler) and on every start (idempotent). `databaseUrl` bypasses the pooler when one is
 * configured (DATABASE_DIRECT_URL).
 */
export async function prepareDatabase(
  databaseUrl: string,
  log?: MigrateOptions['log'],
  { onlyIfEmpty = true }: { onlyIfEmpty?: boolean } = {},
): Promise<SeedOutcome> {
  await migrate({ databaseUrl, dir: paths.migrations, ...(log ? { log } : {}) })
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
  try {
    const outcome = await seedQuotes(pool, () => readSeedFile(), { onlyIfEmpty })
    if (onlyIfEmpty && !outcome.skipped) log?.info({ ...outcome }, 'seeded quotes')
    // Search plans each term from the statistics of quotes and quote_search (see
    // search-query.ts): fresh ones at once, rather than when autovacuum gets to it.
    if (!outcome.skipped) await pool.query('ANALYZE quotes, quote_search')
    return outcome
  } finally {
    await pool.end()
  }
}
