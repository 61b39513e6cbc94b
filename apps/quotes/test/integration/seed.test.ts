import { migrate } from '@repo/service-kit'
import { createTestDatabase, type TestDatabase } from '@repo/service-kit/testing'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareDatabase } from '../../src/lib/database.js'
import { readSeedFile, seedQuotes } from '../../src/lib/seed.js'
import { paths } from '../../src/paths.js'

let db: TestDatabase
let pool: pg.Pool

beforeAll(async () => {
  db = await createTestDatabase('quotes_seed')
  pool = new pg.Pool({ connectionString: db.url, max: 2 })
})
afterAll(async () => {
  await pool?.end()
  await db?.drop()
})

/** The rows of quote_search as its last ANALYZE counted them. */
async function analyzedRows(): Promise<number> {
  const { rows } = await pool.query(
    "SELECT reltuples::int AS n FROM pg_class WHERE relname = 'quote_search'",
  )
  return rows[0].n
}

describe('migrations and seeding', () => {
  it('are safe when several replicas start at once', async () => {
    const logged: unknown[][] = []
    const log = { info: (...args: unknown[]) => logged.push(args), warn: () => {} }
    const outcomes = await Promise.all([
      prepareDatabase(db.url, log),
      prepareDatabase(db.url, log),
      prepareDatabase(db.url, log),
    ])
    expect(outcomes.filter((o) => !o.skipped)).toHaveLength(1)
    const seeded = outcomes.find((o) => !o.skipped)
    expect(logged.filter(([, message]) => message === 'seeded quotes')).toEqual([
      [{ ...seeded }, 'seeded quotes'],
    ])
    expect(logged.filter(([, message]) => message === 'applied migrations')).toHaveLength(1)
    // Search's sample and the planner's statistics are there at once (ANALYZE), not when
    // autovacuum gets to them.
    const stats = await pool.query(
      `SELECT 1 FROM pg_stats WHERE (tablename, attname) IN
         (('quote_search', 'words'), ('quotes', 'search_text'))`,
    )
    expect(stats.rowCount).toBe(2)
    const file = await readSeedFile()
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM quotes')
    expect(rows[0].n).toBe(file.length)
    expect(file.length).toBeGreaterThanOrEqual(7000)
  })

  it('run again as a no-op (not even ANALYZE)', async () => {
    expect(await migrate({ databaseUrl: db.url, dir: paths.migrations })).toEqual([])
    await pool.query(
      `INSERT INTO quotes (num, quote, author, source, author_id)
       SELECT 20000003, 'x', name, 'synthetic', id FROM authors LIMIT 1`,
    )
    const before = await analyzedRows()
    expect((await prepareDatabase(db.url)).skipped).toBe(true)
    expect(await analyzedRows()).toBe(before)
  })

  it('seed again from the file when asked to, then ANALYZE, without the start-up log line', async () => {
    const logged: unknown[] = []
    const log = { info: (_: object, message?: string) => logged.push(message), warn: () => {} }
    await pool.query('DELETE FROM quotes WHERE num IN (3, 20000003)')
    const outcome = await prepareDatabase(db.url, log, { onlyIfEmpty: false })
    expect(outcome).toEqual({ inserted: 1, updated: 0, removed: 0, skipped: false })
    expect(logged).toEqual([])
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM quote_search')
    expect(await analyzedRows()).toBe(rows[0].n)
  })

  it('keep ids stable when re-seeding, updating and removing only what changed', async () => {
    const file = await readSeedFile()
    const before = await pool.query('SELECT quote FROM quotes WHERE num = 5')
    const edited = file
      .filter((q) => q.id !== 'q7')
      .map((q) => (q.id === 'q5' ? { ...q, quote: `${q.quote} (edited)` } : q))
    const outcome = await seedQuotes(pool, edited, { onlyIfEmpty: false })
    expect(outcome).toMatchObject({ inserted: 0, updated: 1, removed: 1, skipped: false })
    const after = await pool.query('SELECT quote FROM quotes WHERE num = 5')
    expect(after.rows[0].quote).toBe(`${before.rows[0].quote} (edited)`)

    const restored = await seedQuotes(pool, file, { onlyIfEmpty: false })
    expect(restored).toMatchObject({ inserted: 1, updated: 1, removed: 0 })
  })

  it('leave synthetic quotes alone when re-seeding', async () => {
    await pool.query(
      "INSERT INTO quotes (num, quote, author, source) VALUES (20000001, 'x', 'y', 'synthetic')",
    )
    await seedQuotes(pool, await readSeedFile(), { onlyIfEmpty: false })
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM quotes WHERE num = 20000001')
    expect(rows[0].n).toBe(1)
  })

  it('fill authors (unique slugs) and tags, and give older rows their author', async () => {
    const authors = await pool.query(
      'SELECT count(*)::int AS n, count(DISTINCT slug)::int AS slugs FROM authors',
    )
    expect(authors.rows[0].n).toBe(authors.rows[0].slugs)
    const tagged = await pool.query(
      `SELECT count(*)::int AS n FROM quote_tags qt JOIN tags t ON t.id = qt.tag_id
        WHERE t.slug = 'famous-quotes'`,
    )
    expect(tagged.rows[0].n).toBe(1090)
    // The synthetic row inserted without an author above got one when re-seeding.
    const orphans = await pool.query(
      'SELECT count(*)::int AS n FROM quotes WHERE author_id IS NULL',
    )
    expect(orphans.rows[0].n).toBe(0)
    // A database from before authors existed is seeded again on the next start.
    await pool.query('UPDATE quotes SET author_id = NULL WHERE num = 1')
    await pool.query('DELETE FROM quote_tags')
    expect((await prepareDatabase(db.url)).skipped).toBe(false)
    const restored = await pool.query('SELECT author_slug, tags FROM quote_view WHERE num = 1')
    expect(restored.rows[0]).toEqual({ author_slug: 'lord-byron', tags: ['friendship'] })
  })

  it('keep the search table in step with the quotes, whoever writes them', async () => {
    const words = async (num: number) =>
      (await pool.query('SELECT words FROM quote_search WHERE num = $1', [num])).rows[0]?.words
    await pool.query(
      "INSERT INTO quotes (num, quote, author, source) VALUES (20000002, 'Don''t PANIC!', 'D. Adams', 'synthetic')",
    )
    // The apostrophe has its own mark (migration 1700000000060), and so has a run of separators
    // other than a single space (080).
    expect(await words(20000002)).toBe('ǂdonǂǁǂtǂpanicǂǀǂǂǂdǂǀǂadamsǂ')
    await pool.query("UPDATE quotes SET quote = 'Keep calm' WHERE num = 20000002")
    expect(await words(20000002)).toBe('ǂkeepǂcalmǂǂdǂǀǂadamsǂ')
    await pool.query('DELETE FROM quotes WHERE num = 20000002')
    expect(await words(20000002)).toBeUndefined()
    const { rows } = await pool.query(
      'SELECT (SELECT count(*) FROM quotes)::int AS quotes, (SELECT count(*) FROM quote_search)::int AS search',
    )
    expect(rows[0].search).toBe(rows[0].quotes)
  })
})
