// Re-seeds the quotes from data/quotes.json: inserts new ones, updates changed ones, removes
// seed quotes the file no longer has. Ids come from the file, so they never change.
//   pnpm --filter @repo/quotes seed
import { migrate } from '@repo/service-kit'
import pg from 'pg'
import { pino } from 'pino'
import { loadQuotesConfig } from '../config.js'
import { readSeedFile, seedQuotes } from '../lib/seed.js'
import { paths } from '../paths.js'

const config = loadQuotesConfig()
const log = pino({ level: config.LOG_LEVEL })
await migrate({ databaseUrl: config.DATABASE_URL, dir: paths.migrations, log })
const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 1 })
try {
  const outcome = await seedQuotes(pool, await readSeedFile(), { onlyIfEmpty: false })
  log.info(
    outcome,
    're-seeded quotes (running services pick this up within CORPUS_REFRESH_SECONDS)',
  )
} finally {
  await pool.end()
}
