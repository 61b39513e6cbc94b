// Loads N synthetic quotes for scale testing, or removes them:
//   pnpm --filter @repo/quotes load-synthetic 1000000 | --remove | --help
import {
  CliError,
  commandLog,
  migrationUrl,
  runCommand,
  transact,
  UsageError,
  withCommandStores,
} from '@repo/service-kit'
import pg from 'pg'
import { loadQuotesConfig } from '../config.js'
import { ensureAuthors, ensureTags, insertTagPairs, tagPairs } from '../lib/catalog-sync.js'
import { prepareDatabase } from '../lib/database.js'
import { progressBar } from '../lib/progress.js'
import { readSeedFile } from '../lib/seed.js'
import { SYNTHETIC_BASE, syntheticGenerator } from '../lib/synthetic.js'

const HELP = `
Usage: pnpm --filter @repo/quotes load-synthetic <count>
       pnpm --filter @repo/quotes load-synthetic --remove

Adds <count> synthetic quotes (ids from 10,000,001 up, after any already loaded; words drawn with
their frequency in the real corpus, so searches behave as they would on a large real one), with a
progress bar. Loads over 50,000 drop the search indexes (the trigram and 4-gram indexes of
quote_search, which triggers fill from the quotes) and set the search vocabulary aside, and rebuild
them once at the end (far faster than updating them row by row; searches are slow meanwhile).
--remove deletes every synthetic quote. Running services see the change within
CORPUS_REFRESH_SECONDS, or at once after a restart. Migrates (and seeds) first, like the service.

Options:
  --remove     delete the synthetic quotes instead
  -h, --help   this text

Environment: DATABASE_URL, DATABASE_DIRECT_URL, EMBEDDED_STORES (see "migrate --help").
`

const BATCH = 5_000
const REBUILD_INDEX_ABOVE = 50_000
// Statements that may outlast the database's default statement_timeout run in transactions with
// their own limit (none).
const NO_LIMIT = { statementTimeoutMs: 0 }
/**
 * The search indexes (migrations 1700000000010, 30 and 100) as they build them, by name; those on
 * an expression keep no statistics of it, as the migrations leave them (the service picks the
 * index itself, and ANALYZE would compute the expression for every sampled row).
 */
const SEARCH_INDEXES = {
  quote_search_words_trgm: { using: 'USING gin (words gin_trgm_ops)', statistics: true },
  quote_search_words_quads: { using: 'USING gin (quote_search_quads(words))', statistics: false },
  quote_search_words_pairs: { using: 'USING gin (quote_search_pairs(words))', statistics: false },
}

function countOf(values: { remove?: boolean }, positionals: string[]): number | 'remove' {
  if (values.remove) {
    if (positionals.length > 0) throw new UsageError('give either a count or --remove, not both')
    return 'remove'
  }
  if (positionals.length !== 1) throw new UsageError('give the number of quotes to load')
  const count = Number(positionals[0])
  if (!/^[0-9_]+$/.test(positionals[0] ?? '') || !Number.isSafeInteger(count) || count < 1) {
    throw new UsageError(`the count must be a whole number from 1, not "${positionals[0]}"`)
  }
  return count
}

async function load(pool: pg.Pool, count: number): Promise<void> {
  const { rows } = await pool.query<{ max: number | null }>(
    "SELECT max(num) AS max FROM quotes WHERE source = 'synthetic'",
  )
  let num = Math.max(rows[0]?.max ?? 0, SYNTHETIC_BASE)
  const corpus = await readSeedFile()
  const next = syntheticGenerator(corpus, num)
  // Authors and tags come from the corpus: make sure each has its row (seeding made them).
  await ensureAuthors(
    pool,
    corpus.map((q) => q.author),
  )
  const tagIds = await ensureTags(
    pool,
    corpus.flatMap((q) => q.tags ?? []),
  )
  const rebuild = count > REBUILD_INDEX_ABOVE
  if (rebuild) {
    await pool.query(`DROP INDEX IF EXISTS ${Object.keys(SEARCH_INDEXES).join(', ')}`)
    // The search vocabulary (migration 70) is rebuilt once at the end too: until then its
    // triggers do nothing and search does not read it.
    await pool.query('UPDATE quote_search_vocabulary_state SET ready = false')
  }
  const started = Date.now()
  const bar = progressBar('quotes', count)
  try {
    for (let done = 0; done < count; ) {
      const size = Math.min(BATCH, count - done)
      const nums: number[] = []
      const texts: string[] = []
      const authors: string[] = []
      const tags: string[][] = []
      for (let i = 0; i < size; i += 1) {
        const q = next()
        num += 1
        nums.push(num)
        texts.push(q.quote)
        authors.push(q.author)
        tags.push(q.tags)
      }
      await pool.query(
        `INSERT INTO quotes (num, quote, author, source, author_id)
           SELECT n, q, a, 'synthetic', authors.id
             FROM unnest($1::int[], $2::text[], $3::text[]) AS t(n, q, a)
             JOIN authors ON authors.name = t.a`,
        [nums, texts, authors],
      )
      await insertTagPairs(pool, tagPairs(nums, tags, tagIds))
      done += size
      bar.update(done)
    }
  } finally {
    bar.stop()
  }
  if (rebuild) commandLog.info({}, 'rebuilding the search indexes (a few minutes for millions)')
  await transact(
    pool,
    async (client) => {
      if (rebuild) {
        // SET LOCAL: the setting ends with the transaction, never left on a pooled connection.
        await client.query("SET LOCAL maintenance_work_mem = '256MB'")
        for (const [name, { using, statistics }] of Object.entries(SEARCH_INDEXES)) {
          await client.query(`CREATE INDEX IF NOT EXISTS ${name} ON quote_search ${using}`)
          if (!statistics) await client.query(`ALTER INDEX ${name} ALTER COLUMN 1 SET STATISTICS 0`)
        }
        await client.query('SELECT quote_search_vocabulary_rebuild()')
      }
      await client.query('ANALYZE quotes, quote_search, quote_tags, quote_search_vocabulary')
    },
    NO_LIMIT,
  )
  commandLog.info(
    { loaded: count, seconds: (Date.now() - started) / 1000 },
    'loaded synthetic quotes',
  )
}

await runCommand(
  {
    name: 'quotes load-synthetic',
    help: HELP,
    positionals: true,
    options: { remove: { type: 'boolean' } },
  },
  async ({ values, positionals }) => {
    const what = countOf(values, positionals)
    await withCommandStores('quotes', loadQuotesConfig(), async (config) => {
      // Maintenance work, like migrations: past the pooler when DATABASE_DIRECT_URL is set.
      const databaseUrl = migrationUrl(config)
      await prepareDatabase(databaseUrl, commandLog)
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
      try {
        if (what === 'remove') {
          const { rowCount } = await transact(
            pool,
            (client) => client.query("DELETE FROM quotes WHERE source = 'synthetic'"),
            NO_LIMIT,
          )
          commandLog.info({ removed: rowCount ?? 0 }, 'removed synthetic quotes')
        } else {
          await load(pool, what)
        }
      } catch (error) {
        // 23505: another load-synthetic ran at the same time and took the same ids.
        if ((error as { code?: string }).code === '23505') {
          throw new CliError(
            'another load-synthetic is running on this database; try again after it',
          )
        }
        throw error
      } finally {
        await pool.end()
      }
    })
  },
)
