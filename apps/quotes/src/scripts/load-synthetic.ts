// Loads N synthetic quotes for scale testing, or removes them:
//   pnpm --filter @repo/quotes load-synthetic 1000000
//   pnpm --filter @repo/quotes load-synthetic --remove
// Large loads drop the search index (the trigram index of quote_search, which triggers fill from
// the quotes) and rebuild it once at the end (far faster than updating it row by row); searches
// are slow meanwhile. Running services see the new quotes within
// CORPUS_REFRESH_SECONDS, or at once after a restart.
import { migrationUrl, transact } from '@repo/service-kit'
import pg from 'pg'
import { pino } from 'pino'
import { loadQuotesConfig } from '../config.js'
import { prepareDatabase } from '../lib/database.js'
import { readSeedFile } from '../lib/seed.js'
import { SYNTHETIC_BASE, syntheticGenerator } from '../lib/synthetic.js'

const BATCH = 5_000
const REBUILD_INDEX_ABOVE = 50_000

const config = loadQuotesConfig()
const log = pino({ level: config.LOG_LEVEL })
const arg = process.argv[2] ?? ''

// Maintenance work, like migrations: past the pooler when DATABASE_DIRECT_URL is set. The
// statements that may outlast the database's default statement_timeout run in transactions with
// their own limit (none).
const databaseUrl = migrationUrl(config)
const NO_LIMIT = { statementTimeoutMs: 0 }
await prepareDatabase(databaseUrl, log)
const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
try {
  if (arg === '--remove') {
    const { rowCount } = await transact(
      pool,
      (client) => client.query("DELETE FROM quotes WHERE source = 'synthetic'"),
      NO_LIMIT,
    )
    log.info({ removed: rowCount }, 'removed synthetic quotes')
  } else {
    const count = Number(arg)
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new Error('usage: load-synthetic <count> | --remove')
    }
    const { rows } = await pool.query<{ max: number | null }>(
      "SELECT max(num) AS max FROM quotes WHERE source = 'synthetic'",
    )
    let num = Math.max(rows[0]?.max ?? 0, SYNTHETIC_BASE)
    const next = syntheticGenerator(await readSeedFile(), num)
    const rebuild = count > REBUILD_INDEX_ABOVE
    if (rebuild) await pool.query('DROP INDEX IF EXISTS quote_search_words_trgm')
    const started = Date.now()
    for (let done = 0; done < count; ) {
      const size = Math.min(BATCH, count - done)
      const nums: number[] = []
      const texts: string[] = []
      const authors: string[] = []
      for (let i = 0; i < size; i += 1) {
        const q = next()
        num += 1
        nums.push(num)
        texts.push(q.quote)
        authors.push(q.author)
      }
      await pool.query(
        `INSERT INTO quotes (num, quote, author, source)
           SELECT n, q, a, 'synthetic' FROM unnest($1::int[], $2::text[], $3::text[]) AS t(n, q, a)`,
        [nums, texts, authors],
      )
      done += size
      if (done % 100_000 === 0 || done === count) log.info({ loaded: done, of: count }, 'loading')
    }
    await transact(
      pool,
      async (client) => {
        if (rebuild) {
          log.info('rebuilding the search index')
          // SET LOCAL: the setting ends with the transaction, never left on a pooled connection.
          await client.query("SET LOCAL maintenance_work_mem = '256MB'")
          await client.query(
            'CREATE INDEX IF NOT EXISTS quote_search_words_trgm ON quote_search USING gin (words gin_trgm_ops)',
          )
        }
        await client.query('ANALYZE quotes, quote_search')
      },
      NO_LIMIT,
    )
    log.info({ loaded: count, seconds: (Date.now() - started) / 1000 }, 'loaded synthetic quotes')
  }
} finally {
  await pool.end()
}
