import { migrate } from '@repo/service-kit'
import { createTestDatabase } from '@repo/service-kit/testing'
import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import { type AuthorEntry, Catalog, type TagEntry } from '../../src/lib/catalog.js'
import { type SeedQuote, seedQuotes } from '../../src/lib/seed.js'
import { paths } from '../../src/paths.js'
import { addSynthetic, recordingPool, SMALL_SEED, useSmallCorpus } from '../support/small-corpus.js'

// SMALL_SEED (lengths: q1 30, q2 71, q3 13, q5 30, q6 12, q9 14), two authors whose names
// differ only in how "É" is encoded, and 30 synthetic quotes (every third tagged wisdom).
const c = useSmallCorpus('catalog')
const EXTRA: SeedQuote[] = [
  { id: 'q10', quote: 'Émile speaks.', author: 'Émile', source: 'quotable', tags: ['Humor'] },
  { id: 'q11', quote: 'Emile again.', author: 'E\u0301mile', source: 'quotable', tags: [] },
]
const HOUR = 3_600_000
let catalog: Catalog

beforeAll(async () => {
  await seedQuotes(c.pool, [...SMALL_SEED, ...EXTRA], { onlyIfEmpty: false })
  await addSynthetic(c.pool, 30)
  // Authors and tags nobody quotes are not listed.
  await c.pool.query("INSERT INTO authors (name, slug) VALUES ('Nobody', 'nobody')")
  await c.pool.query("INSERT INTO tags (name, slug) VALUES ('Empty', 'empty')")
  catalog = new Catalog(c.pool, HOUR)
  await catalog.whenReady()
})

const names = (list: { name: string }[]) => list.map((entry) => entry.name)
const author = (slug: string) => catalog.author(slug) as AuthorEntry
const tag = (slug: string) => catalog.tag(slug) as TagEntry
const first = () => 0
const last = () => 0.999

describe('Catalog: authors and tags', () => {
  it('lists the authors with quotes by name or by count, filtered by folded name', () => {
    const byName = ['Anaïs Nin', 'Douglas Adams', 'E\u0301mile', 'Émile', 'Hegel', 'Paul']
    expect(names(catalog.authors('', 'name'))).toEqual([...byName, 'Socrates', 'Synthetic Author'])
    expect(names(catalog.authors('', 'count'))).toEqual([
      'Synthetic Author',
      'Paul',
      ...byName.filter((name) => name !== 'Paul'),
      'Socrates',
    ])
    expect(names(catalog.authors('ANAIS', 'name'))).toEqual(['Anaïs Nin'])
    expect(names(catalog.authors('o', 'count'))).toEqual([
      'Synthetic Author',
      'Douglas Adams',
      'Socrates',
    ])
    expect(catalog.author('paul')).toMatchObject({
      name: 'Paul',
      slug: 'paul',
      folded: 'paul',
      count: 2,
    })
    expect(catalog.author('anais-nin')?.folded).toBe('anais nin')
    expect(catalog.author('nobody')).toBeUndefined()
  })

  it('lists the tags with quotes, most quoted first, then by slug', () => {
    expect(catalog.tags().map((t) => [t.slug, t.count])).toEqual([
      ['wisdom', 13],
      ['love', 2],
      ['humor', 1],
      ['philosophy', 1],
    ])
    expect(catalog.tag('love')).toMatchObject({ slug: 'love', name: 'Love', count: 2 })
    expect(catalog.tag('empty')).toBeUndefined()
  })

  it('gives an author’s and a tag’s quote ids in id order, computed once', () => {
    expect([...catalog.quotesOf(author('paul'))]).toEqual([1, 9])
    expect([...catalog.quotesOf(author('socrates'))]).toEqual([3])
    const wisdom = catalog.tagIds('wisdom')
    expect(wisdom?.id).toBe(tag('wisdom').id)
    expect([...(wisdom?.nums ?? [])]).toEqual([
      2,
      3,
      5,
      ...Array.from({ length: 10 }, (_, i) => 1003 + 3 * i),
    ])
    expect(catalog.tagIds('wisdom')?.nums).toBe(wisdom?.nums)
    expect([...(catalog.tagIds('love')?.nums ?? [])]).toEqual([1, 5])
    expect(catalog.tagIds('no-such-tag')).toBeUndefined()
  })
})

describe('Catalog: random picks', () => {
  it('picks among every quote, shortest to longest, within a length range', () => {
    expect(catalog.pick({}, first)).toBe(6)
    expect(catalog.pick({}, last)).toBe(2)
    expect(catalog.pick({ minLength: 13, maxLength: 14 }, first)).toBe(3)
    expect(catalog.pick({ minLength: 13, maxLength: 14 }, last)).toBe(9)
    expect(catalog.pick({ maxLength: 5 })).toBeUndefined()
    expect(catalog.pick({ minLength: 72 })).toBeUndefined()
  })

  it('picks among an author’s or a tag’s quotes', () => {
    expect(catalog.pick({ author: author('paul') }, first)).toBe(9)
    expect(catalog.pick({ author: author('paul') }, last)).toBe(1)
    expect(catalog.pick({ author: author('paul'), minLength: 15 }, first)).toBe(1)
    expect(catalog.pick({ tag: tag('love') }, first)).toBe(1)
    expect(catalog.pick({ tag: tag('love') }, last)).toBe(5)
    expect(catalog.pick({ tag: tag('philosophy'), maxLength: 70 })).toBeUndefined()
  })

  it('picks among an author’s quotes that carry a tag', () => {
    const wisdom = tag('wisdom')
    const synthetic = author('synthetic-author')
    const draws = new Set(
      Array.from({ length: 40 }, (_, i) =>
        catalog.pick({ author: synthetic, tag: wisdom }, () => i / 40),
      ),
    )
    expect([...draws].sort()).toEqual(Array.from({ length: 10 }, (_, i) => 1003 + 3 * i).sort())
    expect(catalog.pick({ author: author('paul'), tag: tag('love') }, last)).toBe(1)
    expect(catalog.pick({ author: author('anais-nin'), tag: wisdom }, first)).toBe(5)
    expect(catalog.pick({ author: author('hegel'), tag: tag('love') })).toBeUndefined()
    // Each filter its own answer (not another's, remembered).
    expect(
      catalog.pick({ author: author('paul'), tag: tag('love'), maxLength: 20 }),
    ).toBeUndefined()
    expect(
      catalog.pick({ author: synthetic, tag: wisdom, minLength: 16, maxLength: 16 }, last),
    ).toBe(1009)
  })
})

describe('Catalog: loading', () => {
  it('reloads on use once older than refreshMs and the corpus has changed, whichever read comes first', async () => {
    const fresh = new Catalog(c.pool, 20)
    await fresh.whenReady()
    const reads: [string, () => unknown][] = [
      ['author', () => fresh.author('paul')],
      ['tag', () => fresh.tag('love')],
      ['authors', () => fresh.authors('', 'name')],
      ['tags', () => fresh.tags()],
      ['pick', () => fresh.pick({})],
    ]
    for (const [name, read] of reads) {
      const version = fresh.version
      await c.pool.query('UPDATE tags SET name = name WHERE false')
      await new Promise((resolve) => setTimeout(resolve, 30))
      read()
      await expect.poll(() => fresh.version, { timeout: 5_000, message: name }).toBe(version + 1)
    }
  })

  it('looks at the corpus counter instead of reloading while nothing has changed', async () => {
    const r = recordingPool(c.pool)
    const fresh = new Catalog(r.pool, 20)
    await fresh.whenReady()
    await new Promise((resolve) => setTimeout(resolve, 30))
    r.sent.length = 0
    fresh.tags()
    await expect.poll(() => r.sent).toEqual(['SELECT version FROM corpus_version'])
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(r.sent).toHaveLength(1)
    expect(fresh.version).toBe(1)
  })

  it('counts every statement writing quotes, quote_tags, authors or tags as a change, and nothing else', async () => {
    const counter = async () =>
      Number((await c.pool.query('SELECT version FROM corpus_version')).rows[0].version)
    const changes = [
      "INSERT INTO authors (name, slug) VALUES ('Counted', 'counted')",
      "UPDATE authors SET name = 'Counted once' WHERE slug = 'counted'",
      "DELETE FROM authors WHERE slug = 'counted'",
      'UPDATE quotes SET quote = quote WHERE num = 1',
      'DELETE FROM quote_tags WHERE false',
      'UPDATE tags SET name = name WHERE false',
    ]
    for (const statement of changes) {
      const before = await counter()
      await c.pool.query(statement)
      expect([statement, await counter()]).toEqual([statement, before + 1])
    }
    const before = await counter()
    await c.pool.query('SELECT count(*) FROM quotes')
    await c.pool.query(
      "INSERT INTO quote_of_the_day (day, num) VALUES ('1999-01-01', 1) ON CONFLICT DO NOTHING",
    )
    expect(await counter()).toBe(before)
  })

  it('loads once for callers at once, and tries a failed first load again', async () => {
    const db = await createTestDatabase('quotes_catalog_late')
    const pool = new pg.Pool({ connectionString: db.url, max: 2 })
    try {
      const late = new Catalog(pool, HOUR)
      await expect(late.whenReady()).rejects.toThrow(/does not exist/)
      await migrate({ databaseUrl: db.url, dir: paths.migrations })
      await seedQuotes(pool, SMALL_SEED, { onlyIfEmpty: false })
      await Promise.all([late.whenReady(), late.whenReady()])
      expect(late.version).toBe(1)
      await late.whenReady()
      // Loaded just now: reads start no reload.
      late.author('paul')
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(late.version).toBe(1)
      expect(late.tags().map((t) => t.slug)).toEqual(['wisdom', 'love', 'philosophy'])
    } finally {
      await pool.end()
      await db.drop()
    }
  })

  it('forgets what it computed when it reloads', async () => {
    const socrates = author('socrates')
    expect(catalog.pick({ author: socrates, tag: tag('love') })).toBeUndefined()
    expect([...(catalog.tagIds('love')?.nums ?? [])]).toEqual([1, 5])
    await c.pool.query(
      "INSERT INTO quote_tags (tag_id, num) SELECT id, 3 FROM tags WHERE slug = 'love'",
    )
    try {
      await catalog.load()
      expect(catalog.pick({ author: author('socrates'), tag: tag('love') })).toBe(3)
      expect([...(catalog.tagIds('love')?.nums ?? [])]).toEqual([1, 3, 5])
    } finally {
      await c.pool.query('DELETE FROM quote_tags WHERE num = 3 AND tag_id = $1', [tag('love').id])
      await catalog.load()
    }
  })

  it('is empty before its first load', () => {
    const unloaded = new Catalog(c.pool, HOUR)
    expect(unloaded.version).toBe(0)
    expect(unloaded.pick({})).toBeUndefined()
    expect(unloaded.authors('', 'name')).toEqual([])
    expect(unloaded.authors('', 'count')).toEqual([])
    expect(unloaded.tags()).toEqual([])
  })
})
