import pg from 'pg'
import { redactUrl } from './redact.js'
import { DEFAULT_STATEMENT_TIMEOUT_MS, timeoutMs, transact } from './transact.js'

interface Log {
  info: (obj: object, msg?: string) => void
  warn: (obj: object, msg?: string) => void
}

/** Postgres does not answer at the configured address (a clear message, no stack needed). */
export class UnreachableError extends Error {
  override name = 'UnreachableError'
}

/** Postgres says 3D000; PgBouncer relays the same message as a protocol error (08P01). */
function missingDatabase(error: unknown): 'postgres' | 'pgbouncer' | undefined {
  const { code, message } = error as { code?: string; message: string }
  if (code === '3D000') return 'postgres'
  if (code === '08P01' && /^database ".*" does not exist$/.test(message)) return 'pgbouncer'
  return undefined
}

/**
 * Creates the database named in `databaseUrl` when it does not exist yet and the role may
 * (so a local run needs no manual createdb). Safe when several replicas race to create it.
 * Through PgBouncer it works too, but PgBouncer waits `server_login_retry` (15 s by default)
 * after the failed log-in before it connects to the new database: DATABASE_DIRECT_URL avoids it.
 */
export async function ensureDatabase(databaseUrl: string, log?: Log): Promise<void> {
  const probe = new pg.Client({ connectionString: databaseUrl })
  let missing: ReturnType<typeof missingDatabase>
  try {
    await probe.connect()
    return
  } catch (error) {
    missing = missingDatabase(error)
    if (!missing) {
      throw new UnreachableError(
        `Postgres is not reachable at ${redactUrl(databaseUrl)}: ${(error as Error).message}`,
        { cause: error },
      )
    }
  } finally {
    await probe.end().catch(() => {})
  }
  const url = new URL(databaseUrl)
  const name = decodeURIComponent(url.pathname.slice(1))
  url.pathname = '/postgres'
  const admin = new pg.Client({ connectionString: url.toString() })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`)
    log?.info({ database: name }, 'created database')
    if (missing === 'pgbouncer') {
      log?.warn(
        { database: name },
        'created through PgBouncer, which waits server_login_retry (15 s by default) before ' +
          'connecting to it; set DATABASE_DIRECT_URL to create and migrate past the pooler',
      )
    }
  } catch (error) {
    const code = (error as { code?: string }).code
    // 42P04: created meanwhile by another replica; 23505: the same race seen by the catalogue.
    if (code !== '42P04' && code !== '23505') throw error
  } finally {
    await admin.end()
  }
}

export interface MigrateOptions {
  /** A connection past the pooler when there is one (DATABASE_DIRECT_URL); a pooler works too. */
  databaseUrl: string
  /** Folder of `NNNN_name.sql` files with `-- Up Migration` / `-- Down Migration` sections. */
  dir: string
  log?: Log
  /** The database's default statement_timeout (ms) for new sessions; 0 means none. */
  statementTimeoutMs?: number
}

/**
 * Applies pending migrations exactly once however many replicas start together, directly or
 * through a transaction-mode pooler: everything happens in one transaction that first takes
 * `pg_advisory_xact_lock` (node-pg-migrate's own lock is a session lock, which a pooler does not
 * keep: it would be taken on one server connection and released on another, or never). The lock
 * covers the whole "read applied migrations → apply → record" sequence, so a replica that waited
 * for it finds the work done. Nothing here sets session state.
 */
export async function migrate(opts: MigrateOptions): Promise<string[]> {
  const statementTimeout = timeoutMs(opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS)
  await ensureDatabase(opts.databaseUrl, opts.log)
  // Loaded here, not at start-up: the migration tool (and its loaders) is only needed this once.
  const { PG_MIGRATE_LOCK_ID, runner } = await import('node-pg-migrate')
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 1 })
  try {
    const names = await transact(
      pool,
      async (client) => {
        // Each statement must see what the replica that held the lock before committed, whatever
        // the database's default isolation level.
        await client.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED')
        // The same key node-pg-migrate's CLI locks, so a manual run and a start-up wait for each
        // other too.
        await client.query('SELECT pg_advisory_xact_lock($1)', [PG_MIGRATE_LOCK_ID])
        const applied = await runner({
          dbClient: inCallerTransaction(client),
          dir: opts.dir,
          direction: 'up',
          migrationsTable: 'pgmigrations',
          // Stryker disable next-line BooleanLiteral: its session lock, taken in this transaction by the session holding the key, is granted and given back before COMMIT
          noLock: true,
          singleTransaction: true,
          checkOrder: true,
          log: () => {},
        })
        await setStatementTimeoutDefault(client, statementTimeout, opts.log)
        return applied.map((migration) => migration.name)
      },
      // Waiting for the lock, and building an index on a large table, may take long.
      { statementTimeoutMs: 0 },
    )
    if (names.length > 0) opts.log?.info({ migrations: names }, 'applied migrations')
    return names
  } finally {
    await pool.end()
  }
}

// Of the three, only COMMIT would change the outcome if passed on; BEGIN and ROLLBACK would make
// Postgres warn of a transaction already, or no longer, in progress.
const RUNNER_TRANSACTION_CONTROL = new Set([
  // Stryker disable next-line StringLiteral: passed on, a BEGIN inside the transaction only warns
  'BEGIN',
  'COMMIT',
  // Stryker disable next-line StringLiteral: passed on, it ends the transaction the caller then rolls back
  'ROLLBACK',
])

/**
 * node-pg-migrate's runner (9.x, dist/legacy/runner.js, migration.js and db.js) cannot run inside
 * a transaction it did not open as it is, in two ways this view of the client removes:
 * - with `singleTransaction` it reads the applied migrations before it sends its own BEGIN, and
 *   it ends with its own COMMIT or ROLLBACK. Here the caller's transaction holds the lock from
 *   before that read to after the last record, so those three statements are skipped and the
 *   caller commits or rolls back.
 * - a migration that calls `pgm.noTransaction()` makes it send `COMMIT;` before that migration
 *   (and `BEGIN;` after), which would let the lock go half-way: refused.
 * The runner uses nothing of a client it is given but `query`, and none of the results of the
 * statements skipped; everything else goes to the client unchanged (simple query protocol, no
 * prepared statements). A small runner of our own would avoid this shim but re-implement
 * ordering checks, the migrations table and the loaders the library keeps.
 */
function inCallerTransaction(client: pg.PoolClient): pg.ClientBase {
  const query = (config: string | pg.QueryConfig, values?: unknown[]) => {
    // The runner sends these as strings; a QueryConfig is never in the set.
    if (RUNNER_TRANSACTION_CONTROL.has(config as string)) return Promise.resolve()
    if (config === 'COMMIT;') {
      return Promise.reject(
        new Error(
          'a migration that runs outside a transaction cannot run under the migration lock',
        ),
      )
    }
    return client.query(config, values)
  }
  return { query } as unknown as pg.ClientBase
}

/**
 * Statements outside a transaction get their limit from a session default stored with the
 * database, which every new server connection reads: it needs no start-up parameter, so it holds
 * behind any pooler, and Postgres itself cancels the statement. Set on every run (idempotent; a
 * changed value reaches connections opened afterwards). Only the database's owner or a superuser
 * may set it for every role (`ALTER DATABASE`); a role without that privilege still migrates and
 * sets it for itself in this database (`ALTER ROLE CURRENT_USER IN DATABASE`, always allowed),
 * which covers a service that migrates as the role it serves with, and says so in the log.
 */
async function setStatementTimeoutDefault(client: pg.PoolClient, ms: number, log?: Log) {
  const { rows } = await client.query<{ name: string }>('SELECT current_database() AS name')
  const database = pg.escapeIdentifier(rows[0]?.name as string)
  const value = `statement_timeout = ${ms}`
  await client.query('SAVEPOINT statement_timeout_default')
  try {
    await client.query(`ALTER DATABASE ${database} SET ${value}`)
    return
  } catch (error) {
    // 42501 insufficient_privilege: not the owner.
    if ((error as { code?: string }).code !== '42501') throw error
    await client.query('ROLLBACK TO SAVEPOINT statement_timeout_default')
  }
  await client.query(`ALTER ROLE CURRENT_USER IN DATABASE ${database} SET ${value}`)
  log?.warn(
    { statementTimeoutMs: ms },
    'this role may not set the default statement_timeout of the whole database: set it for ' +
      'this role only (run ALTER DATABASE ... SET statement_timeout as its owner to cover every role)',
  )
}
