import pg from 'pg'
import { redactUrl } from './redact.js'

interface Log {
  info: (obj: object, msg?: string) => void
}

/**
 * Creates the database named in `databaseUrl` when it does not exist yet and the role may
 * (so a local run needs no manual createdb). Safe when several replicas race to create it.
 */
export async function ensureDatabase(databaseUrl: string, log?: Log): Promise<void> {
  const probe = new pg.Client({ connectionString: databaseUrl })
  try {
    await probe.connect()
    return
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') {
      throw new Error(
        `Postgres is not reachable at ${redactUrl(databaseUrl)}: ${(error as Error).message}`,
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
  } catch (error) {
    const code = (error as { code?: string }).code
    // 42P04: created meanwhile by another replica; 23505: the same race seen by the catalogue.
    if (code !== '42P04' && code !== '23505') throw error
  } finally {
    await admin.end()
  }
}

export interface MigrateOptions {
  databaseUrl: string
  /** Folder of `NNNN_name.sql` files with `-- Up Migration` / `-- Down Migration` sections. */
  dir: string
  log?: Log
}

/**
 * Applies pending migrations in one transaction. node-pg-migrate holds a Postgres advisory lock
 * for the run; `wait` makes a second replica block until the first is done instead of failing.
 */
export async function migrate(opts: MigrateOptions): Promise<string[]> {
  await ensureDatabase(opts.databaseUrl, opts.log)
  // Loaded here, not at start-up: the migration tool (and its loaders) is only needed this once.
  const { runner } = await import('node-pg-migrate')
  const client = new pg.Client({ connectionString: opts.databaseUrl })
  await client.connect()
  try {
    const applied = await runner({
      dbClient: client,
      dir: opts.dir,
      direction: 'up',
      migrationsTable: 'pgmigrations',
      advisoryLockMode: 'wait',
      singleTransaction: true,
      checkOrder: true,
      log: () => {},
    })
    const names = applied.map((migration) => migration.name)
    if (names.length > 0) opts.log?.info({ migrations: names }, 'applied migrations')
    return names
  } finally {
    await client.end()
  }
}
