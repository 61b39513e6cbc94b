import Fastify, { type FastifyInstance } from 'fastify'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import metricsPlugin from '../src/plugins/metrics.js'
import postgresPlugin, { type PostgresPluginOptions } from '../src/plugins/postgres.js'
import responsePipeline from '../src/plugins/response-pipeline.js'
import {
  createTestDatabase,
  freePort,
  PG_ADMIN_URL,
  type TestDatabase,
  waitFor,
} from '../src/testing/index.js'
import { type LogLine, logLines } from './support/log-lines.js'

// The Postgres plugin against the machine's Postgres: the pool it owns, a start that fails fast
// and clearly, and the up/down state (and metrics) it reports from what the pool sees.

let db: TestDatabase
const apps: FastifyInstance[] = []
beforeAll(async () => {
  db = await createTestDatabase('kit_pg_plugin')
}, 60_000)
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close().catch(() => {})
})
afterAll(async () => {
  await db?.drop()
})

let lines: () => LogLine[] = () => []

async function appWith(opts: Partial<PostgresPluginOptions> = {}, metrics = true) {
  const log = logLines()
  lines = log.lines
  const app = Fastify({ logger: { level: 'info', stream: log.stream } })
  apps.push(app)
  if (metrics) {
    await app.register(responsePipeline)
    await app.register(metricsPlugin)
  }
  await app.register(postgresPlugin, { connectionString: db.url, ...opts })
  await app.ready()
  return app
}

const metric = async (app: FastifyInstance, name: string) =>
  (await app.promRegistry.metrics()).split('\n').find((line) => line.startsWith(name))

async function terminate(app: FastifyInstance) {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL })
  await admin.connect()
  try {
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'kit-pg-plugin' AND datname = $1",
      [db.name],
    )
  } finally {
    await admin.end()
  }
  await waitFor('the pool to see it', async () => app.postgresState.status === 'down', 5_000)
}

describe('the Postgres plugin', () => {
  it('opens a pool of 10 by default, or the size asked for, with its time limits', async () => {
    const usual = await appWith({}, false)
    expect(usual.pg.options).toMatchObject({
      max: 10,
      min: 1,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    })
    expect((await appWith({ max: 2 }, false)).pg.options.max).toBe(2)
  })

  it('keeps its last connection, and its Postgres process, through a quiet spell', async () => {
    const app = await appWith({ idleTimeoutMs: 50 }, false)
    const backend = async (sql = 'SELECT pg_backend_pid() AS pid') =>
      (await app.pg.query(sql)).rows[0].pid as number
    // A burst opens a second connection; once both are idle, one of them goes.
    const sleeper = 'SELECT pg_backend_pid() AS pid, pg_sleep(0.05)'
    const burst = await Promise.all([backend(sleeper), backend(sleeper)])
    expect(new Set(burst).size).toBe(2)
    await waitFor('the extra connection to close', async () => app.pg.totalCount === 1, 5_000)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(app.pg.totalCount).toBe(1)
    expect(burst).toContain(await backend())
  })

  it('closes every idle connection when told to keep none', async () => {
    const app = await appWith({ idleTimeoutMs: 50, min: 0 }, false)
    await app.pg.query('SELECT 1')
    await waitFor('the idle connection to close', async () => app.pg.totalCount === 0, 5_000)
  })

  it('has proven a connection by the time the app is ready', async () => {
    const app = await appWith({}, false)
    expect(app.pg.totalCount).toBe(1)
    expect(app.postgresState.status).toBe('up')
    expect((await app.pg.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
  })

  it('refuses to start when Postgres does not answer, naming where without the password', async () => {
    const app = Fastify()
    const url = `postgres://someone:s3cret@127.0.0.1:${await freePort()}/things`
    app.register(postgresPlugin, { connectionString: url })
    const failure = app.ready()
    await expect(failure).rejects.toThrow(/^Postgres is not reachable at postgres:\/\/someone:/)
    await expect(failure).rejects.toThrow(/ECONNREFUSED/)
    await expect(failure).rejects.not.toThrow(/s3cret/)
    await app.close().catch(() => {})
  })

  it('makes no connection when told not to connect (describing the API)', async () => {
    const url = `postgres://someone@127.0.0.1:${await freePort()}/things`
    const app = await appWith({ connectionString: url, connect: false }, false)
    expect(app.pg.totalCount).toBe(0)
  })

  it('reports Postgres down when a pooled connection is lost, and up with the next one', async () => {
    const app = await appWith({ applicationName: 'kit-pg-plugin' })
    expect(await metric(app, 'dependency_up')).toBe('dependency_up{dependency="postgres"} 1')
    await terminate(app)
    expect(await metric(app, 'dependency_up')).toBe('dependency_up{dependency="postgres"} 0')
    expect(await metric(app, 'dependency_errors_total')).toBe(
      'dependency_errors_total{dependency="postgres"} 1',
    )
    await app.pg.query('SELECT 1')
    expect(app.postgresState.status).toBe('up')
    expect(await metric(app, 'dependency_up')).toBe('dependency_up{dependency="postgres"} 1')
    expect(lines().map((line) => [line.dependency, line.msg.split(':')[0]])).toEqual([
      ['postgres', 'postgres is unavailable'],
      ['postgres', 'postgres is available again'],
    ])
  })

  it('reports the same way without the metrics plugin', async () => {
    const app = await appWith({ applicationName: 'kit-pg-plugin' }, false)
    await terminate(app)
    await app.pg.query('SELECT 1')
    expect(app.postgresState.status).toBe('up')
  })

  it('ends the pool when the app closes', async () => {
    const app = await appWith({}, false)
    apps.splice(apps.indexOf(app), 1)
    await app.close()
    expect(app.pg.ended).toBe(true)
    expect(app.hasPlugin('postgres')).toBe(true)
  })
})
