import type pg from 'pg'

/**
 * The corpus's change counter (migration 1700000000040: every statement writing quotes,
 * quote_tags, authors or tags adds one). A view of the corpus loaded at one value is current for
 * as long as the counter keeps it; read it before loading, so a change made during the load is
 * seen as a change at the next look.
 */
export async function corpusVersion(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ version: string }>('SELECT version FROM corpus_version')
  return rows[0]?.version ?? ''
}
