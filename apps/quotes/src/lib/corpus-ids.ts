import type pg from 'pg'

/**
 * The sorted ids of every quote. They are read as runs of consecutive ids (a seeded or loaded
 * corpus is a handful of runs), so a million ids cross the wire as a few pairs of numbers rather
 * than a million-element array; any set of ids still comes out exactly.
 */
export async function loadCorpusIds(pool: pg.Pool): Promise<Int32Array> {
  const { rows } = await pool.query<{ first: number; n: number }>(
    `SELECT min(num) AS first, count(*)::int AS n
       FROM (SELECT num, num - row_number() OVER (ORDER BY num) AS run FROM quotes) AS r
      GROUP BY run ORDER BY first`,
  )
  const ids = new Int32Array(rows.reduce((sum, row) => sum + row.n, 0))
  let at = 0
  for (const { first, n } of rows) {
    for (let i = 0; i < n; i += 1) ids[at++] = first + i
  }
  return ids
}

/** True when the corpus has at most `max` quotes (reads at most `max` + 1 index entries). */
export async function corpusFits(pool: pg.Pool, max: number): Promise<boolean> {
  const { rowCount } = await pool.query('SELECT 1 FROM quotes ORDER BY num OFFSET $1 LIMIT 1', [
    max,
  ])
  return rowCount === 0
}
