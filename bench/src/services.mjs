// The services under test: how to start a production build against its own fresh database.
// To add one, add an entry here (and the app to bench/package.json dependencies, so that the
// build step of `pnpm bench` builds it first).

import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { databaseUrl, infra, paths, runId, settings } from './config.mjs'
import { createBenchKeys } from './data-api-keys.mjs'
import { dropDatabase, recreateDatabase } from './database.mjs'
import { freePort, startProcess } from './servers.mjs'

export const services = {
  quotes: {
    entry: join(paths.repo, 'apps', 'quotes', 'dist', 'server.js'),
    database: `bench_quotes_${runId}`,
    env: {
      // All benchmark requests come from one address; the default per-address ceiling
      // (1,000 requests per minute) would answer 429 to nearly all of them.
      RATE_LIMIT_MAX: '1000000000',
    },
    // Optional: async ({ url, databaseUrl }) => context, run once the service is ready (create an
    // account, an API key...). Scenario `headers`/`body` functions receive this context.
    prepare: undefined,
  },
  'data-api': {
    entry: join(paths.repo, 'apps', 'data-api', 'dist', 'server.js'),
    database: `bench_data_api_${runId}`,
    env: {
      SESSION_SECRET: randomBytes(24).toString('hex'),
      // The bench signs up from one address.
      AUTH_RATE_LIMIT_PER_ADDRESS: '1000',
    },
    // 30 ENTERPRISE keys: 3,000,000 requests a day between them, and at most a few requests in
    // flight per key at 50 connections.
    prepare: async ({ url }) => ({
      apiKeys: await createBenchKeys(url, { users: 3, perUser: 10 }),
    }),
  },
}

/** Databases this run created (the scale database is kept: it is not recreated here). */
const created = new Set()

/** Drops the databases this run created; call once their services are stopped. */
export async function dropCreatedDatabases() {
  for (const name of created) {
    await dropDatabase(name)
    created.delete(name)
  }
}

/**
 * Starts service `name` as `node <entry>` on a free port and waits for GET /ready to answer 200.
 * The database is dropped and created first unless `recreate` is false; the service's `prepare`
 * runs unless `prepare` is false. Resolves to { name, url, pid, handle, readyMs, context,
 * logFile } (the file the service's output goes to).
 */
export async function startService(
  name,
  { instance = name, database, recreate = true, prepare = true } = {},
) {
  const service = services[name]
  if (!service) throw new Error(`unknown service ${JSON.stringify(name)}`)
  const db = database ?? service.database
  if (recreate) {
    await recreateDatabase(db)
    created.add(db)
  }
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const logFile = join(paths.results, `${instance}.log`)
  const handle = await startProcess({
    name: instance,
    // As the apps' start scripts and images run them (see their package.json and Dockerfile).
    args: [
      '--max-old-space-size=512',
      '--max-semi-space-size=16',
      ...settings.nodeArgs,
      service.entry,
    ],
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl(db),
      REDIS_URL: infra.redis,
      REDIS_KEY_PREFIX: infra.redisPrefix,
      LOG_LEVEL: 'info',
      ...service.env,
    },
    logFile,
    readyUrl: `${url}/ready`,
    timeoutMs: 60_000,
  })
  const context =
    prepare && service.prepare ? await service.prepare({ url, databaseUrl: databaseUrl(db) }) : {}
  return { name, url, pid: handle.pid, handle, readyMs: handle.readyMs, context, logFile }
}
