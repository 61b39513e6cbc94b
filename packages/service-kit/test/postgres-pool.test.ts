import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { migrate } from '../src/migrate.js'
import postgresPlugin from '../src/plugins/postgres.js'
import { createTestDatabase } from '../src/testing/index.js'
import { usePgBouncer, useTestDatabase } from '../src/testing/vitest.js'

const db = useTestDatabase('kit_pool')
const bouncer = usePgBouncer()
const noMigrations = mkdtempSync(join(tmpdir(), 'no-migrations-'))

afterAll(() => {
  rmSync(noMigrations, { recursive: true })
})

/** The parameters of the first start-up message a server listening here receives. */
function captureStartup(): Promise<{ server: Server; port: number; params: Promise<string[]> }> {
  return new Promise((resolve) => {
    let received: (params: string[]) => void = () => {}
    const params = new Promise<string[]>((done) => {
      received = done
    })
    const server = createServer((socket) => {
      socket.once('data', (packet) => {
        // Int32 length, Int32 protocol 3.0, then name\0value\0 pairs and a final \0.
        const fields = packet
          .subarray(8, packet.readInt32BE(0) - 2)
          .toString('utf8')
          .split('\0')
        received(fields.filter((_, index) => index % 2 === 0))
        socket.destroy()
      })
    })
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, params })
    })
  })
}

describe('the Postgres pool', () => {
  it('sends no start-up parameter PgBouncer does not track', async () => {
    const { server, port, params } = await captureStartup()
    const app = Fastify()
    app.register(postgresPlugin, {
      connectionString: `postgres://someone@127.0.0.1:${port}/things`,
      applicationName: 'kit-test',
    })
    try {
      await expect(app.ready()).rejects.toThrow(/not reachable/)
      // client_encoding (UTF8) is always added by pg's protocol layer; PgBouncer tracks it, as
      // it tracks application_name.
      expect((await params).sort()).toEqual([
        'application_name',
        'client_encoding',
        'database',
        'user',
      ])
    } finally {
      server.close()
      await app.close().catch(() => {})
    }
  })

  it('works through PgBouncer, which passes the service’s application_name on', async () => {
    const app = Fastify()
    await app.register(postgresPlugin, {
      connectionString: bouncer().url(db().name),
      applicationName: 'kit-test',
    })
    try {
      const { rows } = await app.pg.query("SELECT current_setting('application_name') AS name")
      expect(rows[0].name).toBe('kit-test')
    } finally {
      await app.close()
    }
  })

  it('limits single statements through PgBouncer with the default migrate sets', async () => {
    // A database of its own: a default reaches server connections opened after it is set, and
    // PgBouncer keeps the ones the other tests opened.
    const fresh = await createTestDatabase('kit_pool_timeout')
    await migrate({ databaseUrl: fresh.url, dir: noMigrations, statementTimeoutMs: 300 })
    const app = Fastify()
    await app.register(postgresPlugin, { connectionString: bouncer().url(fresh.name) })
    try {
      const { rows } = await app.pg.query('SHOW statement_timeout')
      expect(rows[0].statement_timeout).toBe('300ms')
      await expect(app.pg.query('SELECT pg_sleep(3)')).rejects.toMatchObject({ code: '57014' })
    } finally {
      await app.close()
      await fresh.drop()
    }
  })
})
