import { readdirSync } from 'node:fs'
import { queryRows, type Replica, type Replicas } from '@repo/service-kit/testing'
import { describeReplicasBehindPgBouncer, expectThreeStarted } from '@repo/service-kit/vitest'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
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

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

/** A dashboard session opened on one replica and carried on to another (shared secret). */
function dashboardOn(instance: FastifyInstance, from?: DashboardClient): DashboardClient {
  const client = new DashboardClient(instance)
  if (from) for (const [name, value] of from.cookies) client.cookies.set(name, value)
  return client
}

async function expectStartedAndMigratedOnce(replicas: Replicas<DataApiConfig>) {
  expectThreeStarted(replicas)
  // Every migration file, each applied once.
  const applied = await queryRows<{ name: string }>(
    replicas.db.url,
    'SELECT name FROM pgmigrations',
  )
  expect(applied.map((row) => row.name)).toEqual(MIGRATIONS)
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

describeReplicasBehindPgBouncer({
  service: 'data-api',
  loadConfig: loadDataApiConfig,
  prepareDatabase,
  app,
  fastifyOverrides: serverOverrides,
  env: {
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
    // No key cache: every authenticated request looks its key up in Postgres.
    KEY_CACHE_TTL_SECONDS: '0',
  },
  preparedOnce: [
    'all start, and the empty database is migrated exactly once',
    expectStartedAndMigratedOnce,
  ],
  serves: [
    'serve sign-up → key → GET and POST /api/v1/data → revoke → 401 across replicas',
    expectKeyPaths,
  ],
  throughPostgres: async (replicas) => {
    const client = dashboardOn((replicas.started[0] as Started).instance.app)
    await client.signUp(uniqueEmail('restart'), 'PRO')
    const key = await client.createKey()
    const urls = replicas.started.map((replica) => replica.url)
    let n = 0
    // Every request looks its key up in Postgres (no key cache), on the next replica.
    return async () => {
      n += 1
      const res = await fetch(`${urls[n % urls.length]}/api/v1/data`, { headers: bearer(key) })
      await res.arrayBuffer()
      return res.status
    }
  },
})
