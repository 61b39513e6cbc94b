import type pg from 'pg'

/**
 * How long one statement may run unless its caller says otherwise: long enough for any query a
 * request makes, short enough that a stuck one gives its pool slot back. The same value is the
 * database's default for statements outside a transaction (see `migrate`), because a
 * transaction-mode pooler (PgBouncer) refuses it as a connection start-up parameter.
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000

export interface TransactOptions {
  /** `SET LOCAL statement_timeout` for this transaction, in ms; 0 means no limit. */
  statementTimeoutMs?: number
}

/** Checks a timeout before it is written into SQL (SET takes no bind parameters). */
export function timeoutMs(value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`a statement timeout is a whole number of ms >= 0, not ${value}`)
  }
  return value
}

/**
 * Runs `fn` in one transaction on one pooled connection: BEGIN and `SET LOCAL
 * statement_timeout` (one round trip), `fn(client)`, COMMIT. Anything `fn` throws rolls the
 * transaction back and is rethrown as it was, even when the ROLLBACK fails too; a connection
 * whose ROLLBACK failed is in an unknown state, so it is destroyed instead of returned to the
 * pool. Nothing outlives the transaction (SET LOCAL, advisory xact locks), so this is safe
 * behind a transaction-mode pooler.
 */
export async function transact<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  { statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS }: TransactOptions = {},
): Promise<T> {
  const begin = `BEGIN; SET LOCAL statement_timeout = ${timeoutMs(statementTimeoutMs)}`
  const client = await pool.connect()
  let broken: Error | undefined
  // A connection lost between two queries (a pooler restarting, say) emits 'error' on a client
  // the pool has lent out: without a listener that would crash the process. The next query
  // fails with it anyway; here it only marks the connection as not to be pooled again.
  const onError = (error: Error) => {
    broken ??= error
  }
  client.on('error', onError)
  try {
    await client.query(begin)
    const result = await fn(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    try {
      await client.query('ROLLBACK')
    } catch (rollbackError) {
      broken ??= rollbackError as Error
    }
    throw error
  } finally {
    client.off('error', onError)
    // release(error) ends the connection rather than pooling it.
    client.release(broken)
  }
}
