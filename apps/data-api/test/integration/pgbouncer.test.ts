import { readdirSync } from 'node:fs'
import {
  type PgBouncer,
  type Replica,
  type Replicas,
  restartUnderLoad,
  startPgBouncer,
  startReplicas,
} from '@repo/service-kit/testing'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import app from '../../src/app.js'
import { type DataApiConfig, loadDataApiConfig } from '../../src/config.js'
import { prepareDatabase } from '../../src/lib/database.js'
import { paths } from '../../src/paths.js'
import { serverOverrides } from '../../src/server-options.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'

type Started = Replica<DataApiConfig>
const MIGRATIONS = readdirSync(paths.migrations)
  .filter((name) => name.endsWith('.sql'))
  .map((name) => name.slice(0, -'.sql'.length))
  .sort()
let bouncer: PgBouncer

beforeAll(async () => {
  bouncer = await startPgBouncer()
})
afterAll(async () => {
  await bouncer?.stop()
})

/** Three replicas started at once on an empty database, their pools going through PgBouncer. */
function startThree(direct: boolean): Promise<Replicas<DataApiConfig>> {
  return startReplicas({
    count: 3,
    label: `data_bouncer_${direct ? 'direct' : 'pooled'}`,
    loadConfig: loadDataApiConfig,
    prepareDatabase,
    app,
    fastifyOverrides: serverOverrides,
    env: (db) => ({
      DATABASE_URL: bouncer.url(db.name),
      ...(direct ? { DATABASE_DIRECT_URL: db.url } : {}),
      SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
      // No key cache: every authenticated request looks its key up in Postgres.
      KEY_CACHE_TTL_SECONDS: '0',
    }),
  })
}

async function migrationsApplied(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query('SELECT name FROM pgmigrations')).rows.map((row) => row.name)
  } finally {
    await client.end()
  }
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

/** A dashboard session opened on one replica and carried on to another (shared secret). */
function dashboardOn(instance: FastifyInstance, from?: DashboardClient): DashboardClient {
  const client = new DashboardClient(instance)
  if (from) for (const [name, value] of from.cookies) client.cookies.set(name, value)
  return client
}

async function expectStartedAndMigratedOnce(replicas: Replicas<DataApiConfig>) {
  expect(replicas.failures).toEqual([])
  expect(replicas.started).toHaveLength(3)
  // Every migration file, each applied once.
  expect(await migrationsApplied(replicas.db.url)).toEqual(MIGRATIONS)
}

async function expectKeyPaths(replicas: Replicas<DataApiConfig>) {
  const [first, second, third] = replicas.started as [Started, Started, Started]
  const email = uniqueEmail('bouncer')
  const signUp = dashboardOn(first.instance.app)
  expect((await signUp.signUp(email, 'PRO')).statusCode).toBe(303)
  const keys = dashboardOn(second.instance.app, signUp)
  const key = await keys.createKey('through pgbouncer')
  const dashboard = await keys.get('/dashboard')
  expect(dashboard.statusCode).toBe(200)
  expect(dashboard.body).toContain('through pgbouncer')
  expect(dashboard.body).toContain(key.slice(0, 11))

  const plans = dashboardOn(third.instance.app, signUp)
  expect((await plans.changePlan('ENTERPRISE')).statusCode).toBe(303)

  const info = await fetch(`${first.url}/api/v1/data`, { headers: bearer(key) })
  expect(info.status).toBe(200)
  const body = await info.json()
  expect(body).toMatchObject({
    user: { email, plan: 'ENTERPRISE' },
    key: { prefix: key.slice(0, 11) },
  })

  const stats = await fetch(`${second.url}/api/v1/data`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({ data: 'One two three. Four!', options: { feature: 'stats' } }),
  })
  expect(stats.status).toBe(200)
  expect(await stats.json()).toMatchObject({ feature: 'stats', result: { words: 4 } })

  const revoked = await dashboardOn(third.instance.app, signUp).revoke(body.key.id)
  expect(revoked.statusCode).toBe(303)
  for (const { url } of replicas.started) {
    const refused = await fetch(`${url}/api/v1/data`, { headers: bearer(key) })
    expect(refused.status).toBe(401)
  }
}

describe('three data-api replicas behind PgBouncer, migrating through it', () => {
  let replicas: Replicas<DataApiConfig>

  beforeAll(async () => {
    replicas = await startThree(false)
  }, 120_000)
  afterAll(async () => {
    await replicas?.close()
  })

  it('all start, and the empty database is migrated exactly once', async () => {
    await expectStartedAndMigratedOnce(replicas)
  })

  it('serve sign-up → key → GET and POST /api/v1/data → revoke → 401 across replicas', async () => {
    await expectKeyPaths(replicas)
  })

  it('answer 200 again within 5 s of PgBouncer restarting, without a restart', async () => {
    const client = dashboardOn((replicas.started[0] as Started).instance.app)
    await client.signUp(uniqueEmail('restart'), 'PRO')
    const key = await client.createKey()
    const urls = replicas.started.map((replica) => replica.url)
    let lostConnections = 0
    for (const { instance } of replicas.started) {
      instance.app.pg.on('error', () => lostConnections++)
    }
    let n = 0
    // Every request looks its key up in Postgres (no key cache), on the next replica.
    const request = async () => {
      n += 1
      const res = await fetch(`${urls[n % urls.length]}/api/v1/data`, { headers: bearer(key) })
      await res.arrayBuffer()
      return res.status
    }
    expect(await request()).toBe(200)

    const recovery = await restartUnderLoad(() => bouncer.restart(), request)

    expect(lostConnections).toBeGreaterThan(0)
    // A valid key is never refused as unknown (401) while Postgres is out of reach.
    expect(recovery.during.filter((status) => status !== 200 && status < 500)).toEqual([])
    expect(recovery.recoveredInMs).toBeDefined()
    expect(recovery.recoveredInMs).toBeLessThan(5_000)
  })
})

describe('three data-api replicas behind PgBouncer, migrating through DATABASE_DIRECT_URL', () => {
  let replicas: Replicas<DataApiConfig>

  beforeAll(async () => {
    replicas = await startThree(true)
  }, 120_000)
  afterAll(async () => {
    await replicas?.close()
  })

  it('all start, and the empty database is migrated exactly once', async () => {
    await expectStartedAndMigratedOnce(replicas)
  })

  it('serve sign-up → key → GET and POST /api/v1/data → revoke → 401 across replicas', async () => {
    await expectKeyPaths(replicas)
  })
})
