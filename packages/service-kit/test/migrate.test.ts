import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureDatabase, migrate, UnreachableError } from '../src/migrate.js'
import {
  createTestDatabase,
  PG_ADMIN_URL,
  type PgBouncer,
  startPgBouncer,
  type TestDatabase,
} from '../src/testing/index.js'
import { recordedLog } from './support/recorded-log.js'
import { createTestRole } from './support/test-role.js'

let bouncer: PgBouncer
const cleanups: (() => Promise<void>)[] = []
const dirs: string[] = []

beforeAll(async () => {
  bouncer = await startPgBouncer()
}, 60_000)
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(async () => {
  await bouncer?.stop()
  for (const dir of dirs) rmSync(dir, { recursive: true })
})

/** A migrations folder holding these files. */
function migrations(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'))
  dirs.push(dir)
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content)
  return dir
}

async function database(label: string): Promise<TestDatabase> {
  const db = await createTestDatabase(label)
  cleanups.push(db.drop)
  return db
}

async function query<R extends pg.QueryResultRow>(url: string, text: string, values?: unknown[]) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<R>(text, values)).rows
  } finally {
    await client.end()
  }
}

const tableExists = async (url: string, name: string) =>
  (await query<{ t: string | null }>(url, 'SELECT to_regclass($1)::text AS t', [name]))[0]?.t !==
  null

/** The session defaults stored for this database: `setconfig` per role ('' for every role). */
const storedDefaults = (db: TestDatabase) =>
  query<{ role: string; setconfig: string[] }>(
    PG_ADMIN_URL,
    `SELECT coalesce(r.rolname, '') AS role, s.setconfig
       FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
       LEFT JOIN pg_roles r ON r.oid = s.setrole
      WHERE d.datname = $1`,
    [db.name],
  )

const SLOW_FIRST = {
  // Slow enough that the replicas' runs overlap.
  '0001_first.sql': '-- Up Migration\nCREATE TABLE first (id int);\nSELECT pg_sleep(0.3);\n',
  '0002_second.sql': '-- Up Migration\nCREATE TABLE second (id int);\n',
}

describe('migrate', () => {
  it('applies each migration exactly once when replicas run it together through PgBouncer', async () => {
    const db = await database('kit_migrate_once')
    const dir = migrations(SLOW_FIRST)
    const runs = await Promise.allSettled(
      [1, 2, 3].map(() => migrate({ databaseUrl: bouncer.url(db.name), dir })),
    )
    expect(runs.map((run) => run.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled'])
    const applied = runs.flatMap((run) => (run.status === 'fulfilled' ? run.value : []))
    expect(applied.sort()).toEqual(['0001_first', '0002_second'])
    const rows = await query<{ name: string }>(db.url, 'SELECT name FROM pgmigrations ORDER BY id')
    expect(rows.map((row) => row.name)).toEqual(['0001_first', '0002_second'])
  })

  it('creates a missing database through PgBouncer, after PgBouncer’s server_login_retry', async () => {
    const name = `test_kit_missing_${randomBytes(4).toString('hex')}`
    cleanups.push(async () => {
      await query(PG_ADMIN_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    })
    const { log, calls } = recordedLog()
    const applied = await migrate({
      databaseUrl: bouncer.url(name),
      dir: migrations(SLOW_FIRST),
      log,
    })
    expect(applied).toEqual(['0001_first', '0002_second'])
    expect(calls).toEqual({
      info: [
        [{ database: name }, 'created database'],
        [{ migrations: ['0001_first', '0002_second'] }, 'applied migrations'],
      ],
      warn: [
        [{ database: name }, expect.stringMatching(/server_login_retry.*DATABASE_DIRECT_URL/)],
      ],
    })
  }, 60_000)

  it('takes another refusal by PgBouncer for Postgres being unreachable, not for a missing database', async () => {
    const db = await database('kit_migrate_refusal')
    // PgBouncer refuses a start-up parameter it does not track (08P01, like a missing database).
    const url = `${bouncer.url(db.name)}?statement_timeout=1`
    await expect(ensureDatabase(url)).rejects.toThrow(UnreachableError)
    await expect(ensureDatabase(url)).rejects.toThrow(/unsupported startup parameter/)
  })

  it('stores the statement_timeout default with the database (saying nothing when nothing is applied)', async () => {
    const db = await database('kit_migrate_default')
    const { log, calls } = recordedLog()
    await migrate({ databaseUrl: db.url, dir: migrations({}), log })
    expect(calls).toEqual({ info: [], warn: [] })
    expect(await storedDefaults(db)).toEqual([{ role: '', setconfig: ['statement_timeout=10000'] }])
    expect(await query(db.url, 'SHOW statement_timeout')).toEqual([{ statement_timeout: '10s' }])
  })

  it('lets a role that may not alter the database migrate, storing the default for itself', async () => {
    const db = await database('kit_migrate_role')
    const migrator = await createTestRole()
    cleanups.unshift(migrator.drop)
    await query(db.url, `GRANT CREATE ON SCHEMA public TO ${migrator.name}`)
    const url = migrator.urlFor(db.url)
    const { log, calls } = recordedLog()

    const applied = await migrate({
      databaseUrl: url,
      dir: migrations(SLOW_FIRST),
      statementTimeoutMs: 4_000,
      log,
    })
    expect(applied).toEqual(['0001_first', '0002_second'])
    const role = migrator.name
    expect(await storedDefaults(db)).toEqual([{ role, setconfig: ['statement_timeout=4000'] }])
    expect(await query(url, 'SHOW statement_timeout')).toEqual([{ statement_timeout: '4s' }])
    expect(calls.warn).toEqual([
      [{ statementTimeoutMs: 4_000 }, expect.stringMatching(/for this role only/)],
    ])
    // Again, with no log to tell.
    await migrate({ databaseUrl: url, dir: migrations(SLOW_FIRST), statementTimeoutMs: 4_000 })
  })

  it('refuses a migration older than one already applied (they would run out of order)', async () => {
    const db = await database('kit_migrate_order')
    const second = { '0002_second.sql': SLOW_FIRST['0002_second.sql'] }
    await migrate({ databaseUrl: db.url, dir: migrations(second) })
    await expect(migrate({ databaseUrl: db.url, dir: migrations(SLOW_FIRST) })).rejects.toThrow(
      'Not run migration 0001_first is preceding already run migration 0002_second',
    )
  })

  it('applies each migration once even where transactions default to REPEATABLE READ', async () => {
    const db = await database('kit_migrate_rr')
    await query(
      db.url,
      `ALTER DATABASE ${db.name} SET default_transaction_isolation = 'repeatable read'`,
    )
    const dir = migrations(SLOW_FIRST)
    // A replica that waited for the lock must see what the one before it committed.
    const runs = await Promise.allSettled(
      [1, 2, 3].map(() => migrate({ databaseUrl: db.url, dir })),
    )
    expect(runs.map((run) => (run.status === 'rejected' ? run.reason : run.status))).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ])
  })

  it('lifts the statement time limit while it migrates (the lock and an index may take long)', async () => {
    const db = await database('kit_migrate_unlimited')
    const dir = migrations({
      '0001_seen.sql':
        "-- Up Migration\nCREATE TABLE seen AS SELECT current_setting('statement_timeout') AS value;\n",
    })
    await migrate({ databaseUrl: db.url, dir })
    expect(await query(db.url, 'SELECT value FROM seen')).toEqual([{ value: '0' }])
  })

  it('rolls every migration of the run back when one fails', async () => {
    const db = await database('kit_migrate_fail')
    const dir = migrations({
      '0001_first.sql': '-- Up Migration\nCREATE TABLE first (id int);\n',
      '0002_broken.sql': '-- Up Migration\nSELECT 1 / 0;\n',
    })
    await expect(migrate({ databaseUrl: db.url, dir })).rejects.toMatchObject({ code: '22012' })
    expect(await tableExists(db.url, 'first')).toBe(false)
    expect(await tableExists(db.url, 'pgmigrations')).toBe(false)
  })

  it('refuses a migration that asks to run outside the transaction, applying nothing', async () => {
    const db = await database('kit_migrate_notx')
    const dir = migrations({
      '0001_first.sql': '-- Up Migration\nCREATE TABLE first (id int);\n',
      '0002_outside.mjs':
        "export const up = (pgm) => { pgm.noTransaction(); pgm.sql('CREATE TABLE outside (id int)') }\n",
    })
    await expect(migrate({ databaseUrl: db.url, dir })).rejects.toThrow(
      /outside a transaction cannot run under the migration lock/,
    )
    expect(await tableExists(db.url, 'first')).toBe(false)
    expect(await tableExists(db.url, 'outside')).toBe(false)
  })
})
