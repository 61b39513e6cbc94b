import { migrate } from '@repo/service-kit'
import pg from 'pg'
import { paths } from '../paths.js'
import { readSeedFile, type SeedOutcome, seedQuotes } from './seed.js'

interface Log {
  info: (obj: object, msg?: string) => void
}

/**
 * Brings the database to the current schema and seeds it on first start. Safe to run from
 * several replicas at once (advisory locks inside) and on every start (idempotent).
 */
export async function prepareDatabase(databaseUrl: string, log?: Log): Promise<SeedOutcome> {
  await migrate({ databaseUrl, dir: paths.migrations, ...(log ? { log } : {}) })
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
  try {
    const outcome = await seedQuotes(pool, await readSeedFile(), { onlyIfEmpty: true })
    if (!outcome.skipped) log?.info({ ...outcome }, 'seeded quotes')
    return outcome
  } finally {
    await pool.end()
  }
}
