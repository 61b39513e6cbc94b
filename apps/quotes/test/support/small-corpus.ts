import { migrate } from '@repo/service-kit'
import { createTestDatabase, type TestDatabase } from '@repo/service-kit/testing'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { ensureAuthors } from '../../src/lib/catalog-sync.js'
import { inlined, type Query } from '../../src/lib/search-statement.js'
import { type SeedQuote, seedQuotes } from '../../src/lib/seed.js'
import { paths } from '../../src/paths.js'

/**
 * A handful of seed quotes (ids in three runs: 1-3, 5-6, 9) with authors and tags: small enough
 * to know every answer, for the tests that call src/lib directly (no HTTP, no 7,000-quote seed).
 */
export const SMALL_SEED: SeedQuote[] = [
  {
    id: 'q1',
    quote: 'Love is patient, love is kind.',
    author: 'Paul',
    source: 'quotable',
    tags: ['Love'],
  },
  {
    id: 'q2',
    quote: 'The owl of Minerva spreads its wings only with the falling of the dusk.',
    author: 'Hegel',
    source: 'quotable',
    tags: ['Wisdom', 'Philosophy'],
  },
  { id: 'q3', quote: 'Know thyself.', author: 'Socrates', source: 'quotable', tags: ['Wisdom'] },
  {
    id: 'q5',
    quote: 'Love and wisdom walk together.',
    author: 'Anaïs Nin',
    source: 'quotable',
    tags: ['Love', 'wisdom'],
  },
  { id: 'q6', quote: "Don't panic!", author: 'Douglas Adams', source: 'fortunes' },
  { id: 'q9', quote: 'A day of love.', author: 'Paul', source: 'fortunes', tags: [] },
]

/**
 * Synthetic quotes 1001.. (`count` of them, author "Synthetic Author"): every one holds "owl", the
 * even ones "even", every fourth "quad"; every third carries the tag `wisdom`.
 */
export async function addSynthetic(pool: pg.Pool, count: number): Promise<void> {
  await ensureAuthors(pool, ['Synthetic Author'])
  await pool.query(
    `INSERT INTO quotes (num, quote, author, source, author_id)
     SELECT 1000 + i, 'The owl number ' || i || CASE WHEN i % 2 = 0 THEN ' is even' ELSE '' END
                      || CASE WHEN i % 4 = 0 THEN ' quad' ELSE '' END,
            a.name, 'synthetic', a.id
       FROM generate_series(1, $1::int) AS i, authors a WHERE a.name = 'Synthetic Author'`,
    [count],
  )
  await pool.query(
    `INSERT INTO quote_tags (tag_id, num)
     SELECT t.id, 1000 + i FROM tags t, generate_series(3, $1::int, 3) AS i WHERE t.slug = 'wisdom'`,
    [count],
  )
}

export interface SmallCorpus {
  db: TestDatabase
  pool: pg.Pool
}

/** Migrates the database and seeds SMALL_SEED (a test app's prepareDatabase). */
export async function prepareSmallDatabase(databaseUrl: string): Promise<void> {
  await migrate({ databaseUrl, dir: paths.migrations })
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
  try {
    await seedQuotes(pool, SMALL_SEED, { onlyIfEmpty: false })
  } finally {
    await pool.end()
  }
}

/** A fresh migrated database holding SMALL_SEED (and `synthetic` synthetic quotes), analyzed. */
export async function createSmallCorpus(
  label: string,
  { synthetic = 0 }: { synthetic?: number } = {},
): Promise<SmallCorpus> {
  const db = await createTestDatabase(`quotes_${label}`)
  await prepareSmallDatabase(db.url)
  const pool = new pg.Pool({ connectionString: db.url, max: 3 })
  if (synthetic > 0) await addSynthetic(pool, synthetic)
  await pool.query('ANALYZE quotes, quote_search, quote_tags')
  return { db, pool }
}

/** The small corpus of a test file: created before its tests, dropped after them. */
export function useSmallCorpus(label: string, options: { synthetic?: number } = {}): SmallCorpus {
  let current: SmallCorpus | undefined
  beforeAll(async () => {
    current = await createSmallCorpus(label, options)
  })
  afterAll(async () => {
    await current?.pool.end()
    await current?.db.drop()
  })
  return new Proxy({} as SmallCorpus, {
    get(_, property) {
      if (!current) throw new Error(`the ${label} corpus is used before it was created`)
      return Reflect.get(current, property)
    },
  })
}

/** The pool, recording the text of every statement sent through it (which strategy ran). */
export function recordingPool(target: pg.Pool): { pool: pg.Pool; sent: string[] } {
  const sent: string[] = []
  const pool = new Proxy(target, {
    get(of, property) {
      if (property !== 'query') return Reflect.get(of, property)
      return (text: string, values?: unknown[]) => {
        sent.push(text)
        return of.query(text, values)
      }
    },
  })
  return { pool, sent }
}

/** The plan Postgres makes for `query` under `settings` (`options`: EXPLAIN's, e.g. "(ANALYZE)"). */
export async function explain(
  pool: pg.Pool,
  settings: string,
  query: Query,
  options = '',
): Promise<string> {
  const results = (await pool.query(
    `${settings}; EXPLAIN ${options} ${inlined(query)}`,
  )) as unknown as pg.QueryResult[]
  return (results.at(-1)?.rows ?? []).map((row) => row['QUERY PLAN']).join('\n')
}
