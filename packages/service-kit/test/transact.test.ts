import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, PG_ADMIN_URL, type TestDatabase } from '../src/testing/index.js'
import { transact } from '../src/transact.js'

let db: TestDatabase
// One connection: a transaction that did not give its client back would block every next test.
let pool: pg.Pool

beforeAll(async () => {
  db = await createTestDatabase('kit_transact')
  pool = new pg.Pool({ connectionString: db.url, max: 1 })
  await pool.query('CREATE TABLE things (name text PRIMARY KEY)')
}, 60_000)
afterAll(async () => {
  await pool?.end()
  await db?.drop()
})

const names = async () =>
  (await pool.query<{ name: string }>('SELECT name FROM things ORDER BY name')).rows.map(
    (row) => row.name,
  )

function expectAllReturned() {
  expect(pool.waitingCount).toBe(0)
  expect(pool.idleCount).toBe(pool.totalCount)
}

describe('transact', () => {
  it('commits what fn did and resolves to what fn returned', async () => {
    const result = await transact(pool, async (client) => {
      await client.query("INSERT INTO things VALUES ('a'), ('b')")
      return 'done'
    })
    expect(result).toBe('done')
    expect(await names()).toEqual(['a', 'b'])
    // Committed: another connection sees it too.
    const other = new pg.Client({ connectionString: db.url })
    await other.connect()
    try {
      expect((await other.query('SELECT count(*)::int AS n FROM things')).rows[0].n).toBe(2)
    } finally {
      await other.end()
    }
    expectAllReturned()
  })

  it('rolls back everything fn did when it throws, and rethrows that error', async () => {
    const thrown = new Error('changed my mind')
    const outcome = transact(pool, async (client) => {
      await client.query("INSERT INTO things VALUES ('c')")
      throw thrown
    })
    await expect(outcome).rejects.toBe(thrown)
    expect(await names()).toEqual(['a', 'b'])
    expectAllReturned()
  })

  it('rolls back when a statement fails, with the database error', async () => {
    const outcome = transact(pool, async (client) => {
      await client.query("INSERT INTO things VALUES ('d')")
      await client.query("INSERT INTO things VALUES ('a')")
    })
    await expect(outcome).rejects.toMatchObject({ code: '23505' })
    expect(await names()).toEqual(['a', 'b'])
    expectAllReturned()
  })

  it('limits its statements with SET LOCAL, which ends with the transaction', async () => {
    const started = Date.now()
    const outcome = transact(pool, (client) => client.query('SELECT pg_sleep(5)'), {
      statementTimeoutMs: 200,
    })
    await expect(outcome).rejects.toMatchObject({ code: '57014' })
    expect(Date.now() - started).toBeLessThan(4_000)
    // The same (only) connection, after the transaction: the database's default again.
    const { rows } = await pool.query('SHOW statement_timeout')
    expect(rows[0].statement_timeout).toBe('0')
    expectAllReturned()
  })

  it('applies a 10 s limit by default, and none with 0', async () => {
    const shown = (opts?: { statementTimeoutMs: number }) =>
      transact(pool, async (client) => (await client.query('SHOW statement_timeout')).rows[0], opts)
    expect(await shown()).toEqual({ statement_timeout: '10s' })
    expect(await shown({ statementTimeoutMs: 0 })).toEqual({ statement_timeout: '0' })
  })

  it('refuses a timeout that is not a whole number of ms before touching the pool', async () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const outcome = transact(pool, async () => 1, { statementTimeoutMs: bad })
      await expect(outcome).rejects.toThrow(RangeError)
      await expect(outcome).rejects.toThrow(
        `a statement timeout is a whole number of ms >= 0, not ${bad}`,
      )
    }
    expectAllReturned()
  })

  it('leaves no listener of its own on the connection it gives back', async () => {
    const listeners = async () => {
      const client = await pool.connect()
      const count = client.listenerCount('error')
      client.release()
      return count
    }
    const before = await listeners()
    await transact(pool, async () => 1)
    await transact(pool, async () => 2)
    expect(await listeners()).toBe(before)
  })

  it('rethrows fn’s error when the rollback fails too, and ends that connection', async () => {
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL })
    await admin.connect()
    try {
      const thrown = new Error('the original failure')
      const outcome = transact(pool, async (client) => {
        const { rows } = await client.query('SELECT pg_backend_pid() AS pid')
        const lost = new Promise((resolve) => client.once('end', resolve))
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid])
        await lost
        throw thrown
      })
      await expect(outcome).rejects.toBe(thrown)
    } finally {
      await admin.end()
    }
    expect(pool.totalCount).toBe(0)
    // The pool opens a fresh connection for the next caller.
    expect(await names()).toEqual(['a', 'b'])
  })
})
