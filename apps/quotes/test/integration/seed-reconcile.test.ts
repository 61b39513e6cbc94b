import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '@repo/service-kit'
import { createTestDatabase, type TestDatabase } from '@repo/service-kit/testing'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureAuthors, ensureTags, replaceTags, tagPairs } from '../../src/lib/catalog-sync.js'
import { readSeedFile, type SeedQuote, seedQuotes } from '../../src/lib/seed.js'
import { paths } from '../../src/paths.js'
import { SMALL_SEED } from '../support/small-corpus.js'

// One database for the file, seeded by the first test (SMALL_SEED: ids 1-3, 5, 6, 9).
let db: TestDatabase
let pool: pg.Pool

beforeAll(async () => {
  db = await createTestDatabase('quotes_seed_reconcile')
  await migrate({ databaseUrl: db.url, dir: paths.migrations })
  // Seeding must not rely on the server's default isolation level.
  await pool0(
    db.url,
    `ALTER DATABASE ${pg.escapeIdentifier(db.name)} SET default_transaction_isolation = 'repeatable read'`,
  )
  pool = new pg.Pool({ connectionString: db.url, max: 3 })
})
afterAll(async () => {
  await pool?.end()
  await db?.drop()
})

async function pool0(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

const rows = async (sql: string, values: unknown[] = []) => (await pool.query(sql, values)).rows
const view = async (num: number) =>
  (await rows('SELECT quote, author, author_slug, tags FROM quote_view WHERE num = $1', [num]))[0]

describe('seeding a small file', () => {
  it('seeds once when several replicas start at once, reading the file only then', async () => {
    let reads = 0
    const source = async () => {
      reads += 1
      return SMALL_SEED
    }
    const replicas = [1, 2, 3].map(() => new pg.Pool({ connectionString: db.url, max: 1 }))
    try {
      const outcomes = await Promise.all(
        replicas.map((p) => seedQuotes(p, source, { onlyIfEmpty: true })),
      )
      expect(outcomes.filter((o) => o.skipped)).toHaveLength(2)
      expect(outcomes.find((o) => !o.skipped)).toEqual({
        inserted: 6,
        updated: 0,
        removed: 0,
        skipped: false,
      })
      expect(reads).toBe(1)
    } finally {
      await Promise.all(replicas.map((p) => p.end()))
    }
    expect(await view(2)).toEqual({
      quote: SMALL_SEED[1]?.quote,
      author: 'Hegel',
      author_slug: 'hegel',
      tags: ['philosophy', 'wisdom'],
    })
    expect(await view(5)).toMatchObject({ author_slug: 'anais-nin', tags: ['love', 'wisdom'] })
  })

  it('reconciles a changed file: inserts, updates and removes only what changed', async () => {
    const [q1, q2, , q5, , q9] = SMALL_SEED as [
      SeedQuote,
      SeedQuote,
      SeedQuote,
      SeedQuote,
      SeedQuote,
      SeedQuote,
    ]
    const changed: SeedQuote[] = [
      { ...q1, quote: 'Love is patient.', tags: ['Life', 'life', 'Love'] },
      { ...q2, author: 'G. W. F. Hegel', tags: [] },
      q5,
      q9,
      { id: 'q12', quote: 'New here.', author: 'Paul', source: 'fortunes' },
    ]
    const outcome = await seedQuotes(pool, changed, { onlyIfEmpty: false })
    expect(outcome).toEqual({ inserted: 1, updated: 2, removed: 2, skipped: false })
    expect(await view(1)).toMatchObject({ quote: 'Love is patient.', tags: ['life', 'love'] })
    expect(await view(2)).toMatchObject({
      author: 'G. W. F. Hegel',
      author_slug: 'g-w-f-hegel',
      tags: [],
    })
    expect(await view(12)).toMatchObject({ author_slug: 'paul', tags: [] })
    expect(await view(3)).toBeUndefined()
    expect(await view(6)).toBeUndefined()
    // Unchanged quotes keep their tags; the tag's first spelling is its name.
    expect(await view(5)).toMatchObject({ tags: ['love', 'wisdom'] })
    expect(await rows("SELECT name FROM tags WHERE slug = 'life'")).toEqual([{ name: 'Life' }])
    // As the file says again: nothing to do but put back what it has.
    const again = await seedQuotes(pool, SMALL_SEED, { onlyIfEmpty: false })
    expect(again).toEqual({ inserted: 2, updated: 2, removed: 1, skipped: false })
    expect(await seedQuotes(pool, SMALL_SEED, { onlyIfEmpty: false })).toEqual({
      inserted: 0,
      updated: 0,
      removed: 0,
      skipped: false,
    })
  })

  it('leaves synthetic quotes alone and gives them their author', async () => {
    await pool.query(
      "INSERT INTO quotes (num, quote, author, source) VALUES (5000, 'Made up.', 'Paul', 'synthetic'), (5001, 'Also.', 'Zed Zee', 'synthetic')",
    )
    const outcome = await seedQuotes(pool, SMALL_SEED, { onlyIfEmpty: false })
    expect(outcome.removed).toBe(0)
    expect(await view(5000)).toMatchObject({ author_slug: 'paul' })
    expect(await view(5001)).toMatchObject({ author_slug: 'zed-zee' })
  })

  it('seeds again on start a database whose quotes have no author yet', async () => {
    expect((await seedQuotes(pool, SMALL_SEED, { onlyIfEmpty: true })).skipped).toBe(true)
    await pool.query('UPDATE quotes SET author_id = NULL WHERE num = 9')
    const outcome = await seedQuotes(pool, SMALL_SEED, { onlyIfEmpty: true })
    expect(outcome).toEqual({ inserted: 0, updated: 1, removed: 0, skipped: false })
    expect(await view(9)).toMatchObject({ author_slug: 'paul' })
  })

  it('refuses a file with an invalid id, writing nothing', async () => {
    const bad = [
      ...SMALL_SEED,
      { id: 'x13', quote: 'Bad.', author: 'Nobody Yet', source: 'quotable' } as const,
    ]
    await expect(seedQuotes(pool, bad, { onlyIfEmpty: false })).rejects.toThrow(
      'seed file has an invalid id: x13',
    )
    expect(await rows("SELECT 1 FROM authors WHERE name = 'Nobody Yet'")).toEqual([])
  })

  it('reads a seed file, the service’s own by default', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quotes-seed-'))
    const file = join(dir, 'quotes.json')
    await writeFile(file, JSON.stringify(SMALL_SEED.slice(0, 2)))
    expect(await readSeedFile(file)).toEqual(SMALL_SEED.slice(0, 2))
    const own = await readSeedFile()
    expect(own.length).toBeGreaterThan(7000)
    expect(own[0]).toMatchObject({ id: 'q1', source: 'quotable' })
  })
})

describe('authors and tags', () => {
  it('adds new authors once, with slugs unique among all authors', async () => {
    await ensureAuthors(pool, ['Paul', 'P.A.U.L.', 'Paul!', 'Paul!', '老子'])
    const got = await rows("SELECT name, slug FROM authors WHERE name LIKE 'P%' ORDER BY id")
    expect(got).toEqual([
      { name: 'Paul', slug: 'paul' },
      { name: 'P.A.U.L.', slug: 'p-a-u-l' },
      { name: 'Paul!', slug: 'paul-2' },
    ])
    expect(await rows("SELECT slug FROM authors WHERE name = '老子'")).toEqual([{ slug: 'author' }])
    await ensureAuthors(pool, [])
  })

  it('adds missing tags by slug and maps every slug to its id', async () => {
    const ids = await ensureTags(pool, ['Self Help', 'self-help', 'Wisdom'])
    const stored = await rows(
      "SELECT id, slug, name FROM tags WHERE slug IN ('self-help', 'wisdom')",
    )
    expect(stored.find((t) => t.slug === 'self-help')?.name).toBe('Self Help')
    for (const tag of stored) expect(ids.get(tag.slug)).toBe(tag.id)
    expect(ids.get('love')).toBeTypeOf('number')
    expect((await ensureTags(pool, [])).size).toBe(ids.size)
  })

  it('pairs quotes with their tags once, skipping unknown tags', () => {
    const ids = new Map([
      ['love', 1],
      ['self-help', 2],
    ])
    expect(
      tagPairs([10, 11, 12], [['Love', 'love', 'Self Help', 'Unknown'], ['self-help']], ids),
    ).toEqual({
      tagIds: [1, 2, 2],
      nums: [10, 10, 11],
    })
  })

  it('replaces the tags of some quotes only', async () => {
    await replaceTags(pool, [1, 2], [['Self Help', '愛'], []])
    expect((await view(1))?.tags).toEqual(['self-help', 'tag'])
    expect((await view(2))?.tags).toEqual([])
    expect((await view(5))?.tags).toEqual(['love', 'wisdom'])
  })
})
