import pg from 'pg'

/*
 * How a search statement (search-query.ts, tag-search.ts) runs: one round trip, one
 * simple-protocol message holding `SET LOCAL` plan settings and the statement (the term inlined as
 * an escaped literal), which Postgres runs as one implicit transaction, so the settings end with
 * it (safe behind a transaction-mode pooler, and an error leaves nothing behind).
 */

export interface Query {
  text: string
  values: unknown[]
}

export interface MatchRow {
  num: number
  block?: number
  blocks?: number
}

/**
 * No parallel workers, and no JIT compilation: a plan without a path its settings allow (the
 * vocabulary's one-row state table read under `enable_seqscan = off`) costs 10^10 and more,
 * past `jit_above_cost`, and compiling it took 450-590 ms for a statement that runs in 4.
 */
export const NO_PARALLEL_OR_JIT =
  'SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL jit = off'
/** The GIN indexes (bitmap scans) only. */
export const INDEX_ONLY = `SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off; ${NO_PARALLEL_OR_JIT}`
/** The primary key in id order only. */
export const WALK_ONLY = `SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; ${NO_PARALLEL_OR_JIT}`
/** The settings each strategy runs with (for EXPLAIN in tests). */
export const PLAN_SETTINGS = { index: INDEX_ONLY, walk: WALK_ONLY, planner: NO_PARALLEL_OR_JIT }

/** The query with its parameters written in as literals (integers checked, strings escaped). */
export function inlined({ text, values }: Query): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = values[Number(n) - 1]
    if (Number.isSafeInteger(value)) return String(value)
    if (typeof value === 'string') return pg.escapeLiteral(value)
    throw new TypeError(`cannot inline parameter $${n}`)
  })
}

/** Runs a query with plan settings, in one round trip (see above). */
export async function run(pool: pg.Pool, settings: string, query: Query): Promise<MatchRow[]> {
  const results = (await pool.query(
    `${settings}; ${inlined(query)}`,
  )) as unknown as pg.QueryResult[]
  return (results.at(-1)?.rows ?? []) as MatchRow[]
}
