#!/usr/bin/env node
/**
 * What CI runs (`pnpm test:e2e:builds`): the end-to-end suite against the production builds of
 * both services, started as plain processes on fresh stores.
 *
 *  1. builds both apps (and the workspace packages they depend on);
 *  2. creates two fresh databases (e2e_quotes_<random>, e2e_data_<random>) and picks a random
 *     Redis key prefix;
 *  3. starts `node apps/quotes/dist/server.js` and `node apps/data-api/dist/server.js` on free
 *     ports and waits for both `/ready` (60 s);
 *  4. runs `vitest run` in e2e/ twice in a row (a second run must pass against the same stack);
 *  5. stops both services with SIGTERM and checks the graceful shutdown: during the drain
 *     (SHUTDOWN_DRAIN_MS) /ready answers 503 while other requests are still served, then the
 *     process exits 0 within 15 s;
 *  6. drops the databases (WITH (FORCE)) and deletes the Redis keys under the prefix.
 *
 * Exits non-zero if anything failed, clean-up included.
 *
 * Environment (all optional):
 *   E2E_PG_ADMIN_URL  a Postgres role that may create databases
 *                     (default TEST_PG_ADMIN_URL or postgres://postgres@127.0.0.1:5432/postgres)
 *   E2E_REDIS_URL     Redis (default TEST_REDIS_URL or redis://127.0.0.1:6379)
 *   E2E_SKIP_BUILD=1  use the existing dist/ folders
 *   E2E_RUNS          how many times to run the suite (default 2)
 */
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { failures, log, run, startService, stopAll, waitReady } from './lib/services.mjs'
import { createDatabases, dbUrl, dropDatabases, freePort, REDIS_URL } from './lib/stores.mjs'

const e2eDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const root = join(e2eDir, '..')

const RUNS = Number(process.env.E2E_RUNS || 2)
const DRAIN_MS = 1_500

const suffix = randomBytes(4).toString('hex')
const databases = { quotes: `e2e_quotes_${suffix}`, data: `e2e_data_${suffix}` }
const redisKeyPrefix = `e2e:${suffix}:`
const sessionSecret = randomBytes(36).toString('base64url') // 48 characters

let cleaningUp = null
async function cleanUp() {
  cleaningUp ??= (async () => {
    await stopAll()
    try {
      await dropDatabases(Object.values(databases))
      log(`dropped databases ${Object.values(databases).join(', ')}`)
    } catch (error) {
      failures.push(`dropping the databases failed: ${error}`)
    }
    try {
      // Imported here: the shared helpers exist once the build above has run.
      const { deleteRedisKeys } = await import('@repo/service-kit/testing')
      const deleted = await deleteRedisKeys(REDIS_URL, redisKeyPrefix)
      log(`deleted ${deleted} Redis keys under ${redisKeyPrefix}`)
    } catch (error) {
      failures.push(`deleting the Redis keys failed: ${error}`)
    }
  })()
  return cleaningUp
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    failures.push(`interrupted by ${signal}`)
    cleanUp().finally(() => process.exit(130))
  })
}

async function main() {
  if (process.env.E2E_SKIP_BUILD === '1') {
    log('skipping the build (E2E_SKIP_BUILD=1)')
  } else {
    log('building both services (and the workspace packages they use)')
    // Through turbo, so the workspace packages each app depends on (^build) come from its cache
    // when `pnpm test` has just built them.
    const code = await run(
      'pnpm',
      [
        'exec',
        'turbo',
        'run',
        'build',
        '--filter=@repo/quotes',
        '--filter=@repo/data-api',
        // The typed client the suite calls the APIs with.
        '--filter=@repo/client',
      ],
      { cwd: root },
    )
    if (code !== 0) throw new Error(`the build failed (exit ${code})`)
  }

  await createDatabases(Object.values(databases))
  log(`created databases ${Object.values(databases).join(', ')}; Redis prefix ${redisKeyPrefix}`)

  const [quotesPort, dataPort] = [await freePort(), await freePort()]
  const common = {
    HOST: '127.0.0.1',
    REDIS_URL,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    // CI machines can be busy: only a lag this long says an instance is overloaded.
    MAX_EVENT_LOOP_DELAY_MS: '5000',
  }
  const urls = {
    QUOTES_URL: `http://127.0.0.1:${quotesPort}`,
    DATA_API_URL: `http://127.0.0.1:${dataPort}`,
  }
  startService(
    'quotes',
    'apps/quotes/dist/server.js',
    { ...common, PORT: String(quotesPort), DATABASE_URL: dbUrl(databases.quotes) },
    urls.QUOTES_URL,
  )
  startService(
    'data-api',
    'apps/data-api/dist/server.js',
    {
      ...common,
      PORT: String(dataPort),
      DATABASE_URL: dbUrl(databases.data),
      SESSION_SECRET: sessionSecret,
      // Every run signs up a handful of users from this one address.
      AUTH_RATE_LIMIT_PER_ADDRESS: '1000',
    },
    urls.DATA_API_URL,
  )
  const readyStart = Date.now()
  await Promise.all([waitReady('quotes'), waitReady('data-api')])
  log(
    `both services ready in ${Date.now() - readyStart} ms: ${urls.QUOTES_URL} ${urls.DATA_API_URL}`,
  )

  for (let i = 1; i <= RUNS; i += 1) {
    log(`suite run ${i} of ${RUNS}`)
    const started = Date.now()
    const code = await run('pnpm', ['exec', 'vitest', 'run'], {
      cwd: e2eDir,
      env: { ...process.env, ...urls },
    })
    log(`suite run ${i}: exit ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    if (code !== 0) {
      failures.push(`suite run ${i} failed (exit ${code})`)
      break
    }
  }
}

try {
  await main()
} catch (error) {
  failures.push(String(error?.stack ?? error))
} finally {
  await cleanUp()
}

if (failures.length > 0) {
  log(`FAILED:\n  - ${failures.join('\n  - ')}`)
  process.exit(1)
}
log(`end-to-end suite passed ${RUNS} time(s) in a row against the production builds; clean-up done`)
