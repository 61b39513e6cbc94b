import { readFile } from 'node:fs/promises'
import { transact } from '@repo/service-kit'
import type pg from 'pg'
import { paths } from '../paths.js'
import { backfillAuthors, ensureAuthors, replaceTags } from './catalog-sync.js'
import { parseQuoteId } from './stored-quote.js'

export interface SeedQuote {
  id: string
  quote: string
  author: string
  source: 'quotable' | 'fortunes'
  /** Tag names as the source spells them (none for fortunes; older files lack the field). */
  tags?: string[]
}

export interface SeedOutcome {
  inserted: number
  updated: number
  removed: number
  skipped: boolean
}

/** Sources the seed file owns; synthetic scale-test quotes are left alone by re-seeding. */
const SEED_SOURCES = ['quotable', 'fortunes']
// Any constant works; it only has to differ from other advisory locks taken on this database.
const SEED_LOCK = 7_210_431

export async function readSeedFile(file = paths.seedFile): Promise<SeedQuote[]> {
  return JSON.parse(await readFile(file, 'utf8')) as SeedQuote[]
}

/**
 * Writes the seed quotes with the ids the file gives them (so ids never change across
 * re-seeding): inserts new ones, updates changed ones, and removes seed quotes the file no longer
 * has. With `onlyIfEmpty` it does nothing when seed quotes exist already (start-up). Several
 * replicas starting at once serialize on an advisory transaction lock (which a transaction-mode
 * pooler keeps, unlike a session lock); the second finds the work done.
 * `source` may be a loader, so a start-up that finds the work done never reads the file.
 */
export async function seedQuotes(
  pool: pg.Pool,
  source: SeedQuote[] | (() => Promise<SeedQuote[]>),
  { onlyIfEmpty }: { onlyIfEmpty: boolean },
): Promise<SeedOutcome> {
  return transact(
    pool,
    async (client) => {
      // Each statement sees what a replica that held the lock before committed.
      await client.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED')
      await client.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK])
      if (onlyIfEmpty) {
        // A database from before authors existed (quotes without author_id) is seeded again.
        const { rows } = await client.query(
          `SELECT EXISTS (SELECT 1 FROM quotes WHERE source = ANY($1))
                  AND NOT EXISTS (SELECT 1 FROM quotes WHERE author_id IS NULL) AS seeded`,
          [SEED_SOURCES],
        )
        if (rows[0].seeded) return { inserted: 0, updated: 0, removed: 0, skipped: true }
      }
      const quotes = typeof source === 'function' ? await source() : source
      const nums = quotes.map((q) => {
        const num = parseQuoteId(q.id)
        if (num === undefined) throw new Error(`seed file has an invalid id: ${q.id}`)
        return num
      })
      await ensureAuthors(
        client,
        quotes.map((q) => q.author),
      )
      const upsert = await client.query<{ inserted: boolean }>(
        `INSERT INTO quotes (num, quote, author, source, author_id)
           SELECT t.*, a.id FROM unnest($1::int[], $2::text[], $3::text[], $4::text[])
                  AS t(num, quote, author, source)
             JOIN authors a ON a.name = t.author
         ON CONFLICT (num) DO UPDATE
           SET quote = EXCLUDED.quote, author = EXCLUDED.author, source = EXCLUDED.source,
               author_id = EXCLUDED.author_id
           WHERE (quotes.quote, quotes.author, quotes.source, quotes.author_id)
                 IS DISTINCT FROM
                 (EXCLUDED.quote, EXCLUDED.author, EXCLUDED.source, EXCLUDED.author_id)
         RETURNING (xmax = 0) AS inserted`,
        [
          nums,
          quotes.map((q) => q.quote),
          quotes.map((q) => q.author),
          quotes.map((q) => q.source),
        ],
      )
      const removed = await client.query(
        'DELETE FROM quotes WHERE source = ANY($1) AND NOT (num = ANY($2::int[]))',
        [SEED_SOURCES, nums],
      )
      await replaceTags(
        client,
        nums,
        quotes.map((q) => q.tags ?? []),
      )
      await backfillAuthors(client)
      const inserted = upsert.rows.filter((row) => row.inserted).length
      return {
        inserted,
        updated: upsert.rows.length - inserted,
        removed: removed.rowCount ?? 0,
        skipped: false,
      }
    },
    // Start-up work: a replica may wait here while another one seeds, and a corpus next to
    // millions of synthetic quotes takes a while to reconcile.
    // Stryker disable next-line ObjectLiteral: the default timeout (10 s) only ends a wait or a reconciliation longer than any test can afford
    { statementTimeoutMs: 0 },
  )
}
