// Postgres housekeeping for the benchmark databases (admin connection to the `postgres` database).
import pg from 'pg'
import { databaseUrl } from './config.mjs'

async function withClient(database, fn) {
  const client = new pg.Client({ connectionString: databaseUrl(database) })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

const quoted = (name) => pg.escapeIdentifier(name)

export async function dropDatabase(name) {
  await withClient('postgres', (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`),
  )
}

/** Drops and creates `name`, empty: the service migrates and seeds it at start-up. */
export async function recreateDatabase(name) {
  await dropDatabase(name)
  await withClient('postgres', (client) => client.query(`CREATE DATABASE ${quoted(name)}`))
}

/** The quotes service's search indexes (migrations 1700000000010, 30 and 100), by name. */
const SEARCH_INDEXES = [
  'quote_search_words_trgm',
  'quote_search_words_quads',
  'quote_search_words_pairs',
]

/**
 * What a quotes database holds: { synthetic, seed, index, catalog, migration } (counts of quotes
 * by origin, whether every search index exists, whether every quote has its author, the newest
 * migration applied), or undefined when the database or table is missing.
 */
export async function quotesInventory(name) {
  const exists = await withClient('postgres', (client) =>
    client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]),
  )
  if (exists.rowCount === 0) return undefined
  return withClient(name, async (client) => {
    const table = await client.query("SELECT to_regclass('public.quotes') AS t")
    if (table.rows[0].t === null) return undefined
    // The newest migration applied: a database an older build loaded is loaded again (starting
    // the service on it would run a migration that may take minutes at this size).
    const applied = await client.query('SELECT max(name) AS name FROM pgmigrations')
    const { rows } = await client.query(
      `SELECT count(*) FILTER (WHERE source = 'synthetic')::int AS synthetic,
              count(*) FILTER (WHERE source <> 'synthetic')::int AS seed,
              (SELECT count(*) = cardinality($1::text[]) FROM pg_indexes
                WHERE indexname = ANY($1)) AS index
         FROM quotes`,
      [SEARCH_INDEXES],
    )
    // Authors and tags (migration 20) filled for every quote, synthetic ones included.
    const tables = await client.query("SELECT to_regclass('public.quote_tags') AS t")
    const catalog =
      tables.rows[0].t !== null &&
      (await client.query('SELECT NOT EXISTS (SELECT 1 FROM quotes WHERE author_id IS NULL) AS ok'))
        .rows[0].ok
    return { ...rows[0], catalog, migration: applied.rows[0]?.name ?? null }
  })
}

/**
 * Reads every table and index of database `name` into memory with pg_prewarm: into Postgres's
 * shared buffers (`buffer` mode) when they can hold it with a tenth to spare, as a server sized
 * per the README ("Postgres memory at scale") keeps it once it has served a while; otherwise into
 * the host's page cache only (`read` mode; the shared buffers keep what they keep, and the passes
 * then copy pages from the page cache as they go). Resolves to { mb, mode, sharedBuffersMb,
 * hugePages } (the last: Postgres's `huge_pages` setting).
 */
export async function prewarmDatabase(name) {
  return withClient(name, async (client) => {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm')
    const relations = `FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i', 'm')`
    const sizes = await client.query(
      `SELECT (SELECT coalesce(sum(pg_relation_size(c.oid)), 0) ${relations}) AS bytes,
              pg_size_bytes(current_setting('shared_buffers')) AS shared_buffers,
              current_setting('huge_pages') AS huge_pages`,
    )
    const bytes = Number(sizes.rows[0].bytes)
    const sharedBuffers = Number(sizes.rows[0].shared_buffers)
    const mode = bytes <= 0.9 * sharedBuffers ? 'buffer' : 'read'
    const { rows } = await client.query(
      `SELECT coalesce(sum(pg_prewarm(c.oid, $1)), 0)
                * current_setting('block_size')::bigint AS bytes ${relations}`,
      [mode],
    )
    const mb = (value) => value / 1024 / 1024
    return {
      mb: mb(Number(rows[0].bytes)),
      mode,
      sharedBuffersMb: mb(sharedBuffers),
      hugePages: sizes.rows[0].huge_pages,
    }
  })
}
