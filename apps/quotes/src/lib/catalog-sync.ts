import type pg from 'pg'
import { slugify, uniqueSlugs } from './slug.js'

type Client = pg.PoolClient | pg.Pool

/**
 * Adds the authors among `names` that are not in the table yet, with slugs unique among all
 * authors (first seen keeps the plain slug). Call inside the seeding transaction (under its lock),
 * before writing quotes that refer to them.
 */
export async function ensureAuthors(client: Client, names: string[]): Promise<void> {
  const existing = await client.query<{ name: string; slug: string }>(
    'SELECT name, slug FROM authors',
  )
  const known = new Set(existing.rows.map((row) => row.name))
  const fresh = [...new Set(names)].filter((name) => !known.has(name))
  // Stryker disable next-line ConditionalExpression: only skips an INSERT that would add no rows
  if (fresh.length === 0) return
  const slugs = uniqueSlugs(fresh, new Set(existing.rows.map((row) => row.slug)), 'author')
  await client.query(
    'INSERT INTO authors (name, slug) SELECT * FROM unnest($1::text[], $2::text[])',
    [fresh, slugs],
  )
}

/** Adds missing tags (one per slug: `Self Help` and `self-help` are one tag); slug → id. */
export async function ensureTags(client: Client, names: string[]): Promise<Map<string, number>> {
  const bySlug = new Map<string, string>()
  for (const name of names) {
    const slug = slugify(name, 'tag')
    if (!bySlug.has(slug)) bySlug.set(slug, name)
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: only skips an INSERT that would add no rows
  if (bySlug.size > 0) {
    await client.query(
      `INSERT INTO tags (slug, name) SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT (slug) DO NOTHING`,
      [[...bySlug.keys()], [...bySlug.values()]],
    )
  }
  const { rows } = await client.query<{ id: number; slug: string }>('SELECT id, slug FROM tags')
  return new Map(rows.map((row) => [row.slug, row.id]))
}

/** Pairs (tag id, quote num) for quotes and their tag names, for `quote_tags`. */
export function tagPairs(
  nums: number[],
  tagLists: string[][],
  tagIds: Map<string, number>,
): { tagIds: number[]; nums: number[] } {
  const pairs = new Set<string>()
  const out = { tagIds: [] as number[], nums: [] as number[] }
  nums.forEach((num, i) => {
    for (const name of tagLists[i] ?? []) {
      const id = tagIds.get(slugify(name, 'tag'))
      if (id === undefined || pairs.has(`${id}:${num}`)) continue
      pairs.add(`${id}:${num}`)
      out.tagIds.push(id)
      out.nums.push(num)
    }
  })
  return out
}

/** Makes the tags of `nums` exactly `tagLists` (same order as nums). */
export async function replaceTags(
  client: Client,
  nums: number[],
  tagLists: string[][],
): Promise<void> {
  const tagIds = await ensureTags(client, tagLists.flat())
  const pairs = tagPairs(nums, tagLists, tagIds)
  await client.query('DELETE FROM quote_tags WHERE num = ANY($1::int[])', [nums])
  await insertTagPairs(client, pairs)
}

export async function insertTagPairs(
  client: Client,
  pairs: { tagIds: number[]; nums: number[] },
): Promise<void> {
  // Stryker disable next-line ConditionalExpression: only skips an INSERT that would add no rows
  if (pairs.nums.length === 0) return
  await client.query(
    `INSERT INTO quote_tags (tag_id, num) SELECT * FROM unnest($1::int[], $2::int[])
     ON CONFLICT DO NOTHING`,
    [pairs.tagIds, pairs.nums],
  )
}

/** Gives every quote still without one (synthetic rows from before authors existed) its author. */
export async function backfillAuthors(client: Client): Promise<void> {
  const { rows } = await client.query<{ author: string }>(
    'SELECT DISTINCT author FROM quotes WHERE author_id IS NULL',
  )
  // Stryker disable next-line ConditionalExpression: only skips statements that would change no rows
  if (rows.length === 0) return
  await ensureAuthors(
    client,
    rows.map((row) => row.author),
  )
  await client.query(
    `UPDATE quotes SET author_id = a.id FROM authors a
      WHERE quotes.author_id IS NULL AND a.name = quotes.author`,
  )
}
