import { existsSync } from 'node:fs'
import { connect } from 'node:net'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { startPgBouncer, withPgClient } from '../src/testing/index.js'
import { usePgBouncer, useTestDatabase } from '../src/testing/vitest.js'

const db = useTestDatabase('kit_pgbouncer')
const bouncer = usePgBouncer()

const backendPid = async (client: pg.Client) =>
  (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

describe('startPgBouncer', () => {
  it('pools in transaction mode: two clients take turns on one server connection', async () => {
    const url = bouncer().url(db().name)
    await withPgClient(url, async (first) => {
      const pid = await backendPid(first)
      // In session mode the first client would keep its server connection while connected.
      await withPgClient(url, async (second) => {
        expect(await backendPid(second)).toBe(pid)
      })
    })
  })

  it('keeps its default settings: a start-up parameter it does not track is refused', async () => {
    const client = new pg.Client({
      connectionString: bouncer().url(db().name),
      statement_timeout: 1,
    })
    await expect(client.connect()).rejects.toThrow(
      /unsupported startup parameter: statement_timeout/,
    )
    await client.end().catch(() => {})
  })

  it('restarts on the same port: connections are cut, new ones work', async () => {
    const url = bouncer().url(db().name)
    const before = new pg.Client({ connectionString: url })
    await before.connect()
    const lost = new Promise<Error>((resolve) => before.once('error', resolve))
    await bouncer().restart()
    expect((await lost).message).toMatch(/terminat|ECONNRESET|closed/i)
    await before.end().catch(() => {})
    expect(bouncer().url(db().name)).toBe(url)
    expect(await withPgClient(url, backendPid)).toBeGreaterThan(0)
  })

  it('stops: the port is closed and its directory removed', async () => {
    const other = await startPgBouncer()
    expect(existsSync(`${other.dir}/pgbouncer.ini`)).toBe(true)
    expect(await accepts(other.port)).toBe(true)
    await other.stop()
    expect(await accepts(other.port)).toBe(false)
    expect(existsSync(other.dir)).toBe(false)
  })
})
