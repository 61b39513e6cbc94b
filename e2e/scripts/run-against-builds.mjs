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
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

const e2eDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const root = join(e2eDir, '..')

const PG_ADMIN_URL =
  process.env.E2E_PG_ADMIN_URL ||
  process.env.TEST_PG_ADMIN_URL ||
  'postgres://postgres@127.0.0.1:5432/postgres'
const REDIS_URL =
  process.env.E2E_REDIS_URL || process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'
const RUNS = Number(process.env.E2E_RUNS || 2)
const READY_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 15_000
const DRAIN_MS = 1_500

const suffix = randomBytes(4).toString('hex')
const databases = { quotes: `e2e_quotes_${suffix}`, data: `e2e_data_${suffix}` }
const redisKeyPrefix = `e2e:${suffix}:`
const sessionSecret = randomBytes(36).toString('base64url') // 48 characters

const failures = []
/** @type {Map<string, import('node:child_process').ChildProcess>} */
const services = new Map()
/** @type {Map<string, string>} */
const baseUrls = new Map()

function log(message) {
  process.stdout.write(`\n[e2e] ${message}\n`)
}

/** Runs a command to completion with inherited output; resolves with its exit code. */
async function run(command, args, options = {}) {
  const child = spawn(command, args, { stdio: 'inherit', ...options })
  const [code, signal] = await once(child, 'exit')
  return signal ? 128 : code
}

/** A port nothing listens on right now (the OS picks it). */
async function freePort() {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address()
  server.close()
  await once(server, 'close')
  return port
}

function dbUrl(name) {
  const url = new URL(PG_ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
}

async function withAdmin(fn) {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

async function createDatabases() {
  await withAdmin(async (client) => {
    for (const name of Object.values(databases)) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`)
    }
  })
}

async function dropDatabases() {
  await withAdmin(async (client) => {
    for (const name of Object.values(databases)) {
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`)
    }
  })
}

/** Starts a built service; its (warn-level) log lines are shown prefixed with its name. */
function startService(name, script, env) {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  for (const stream of [child.stdout, child.stderr]) {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) if (line) process.stderr.write(`[${name}] ${line}\n`)
    })
    stream.on('end', () => {
      if (rest) process.stderr.write(`[${name}] ${rest}\n`)
    })
  }
  child.exitState = null
  child.once('exit', (code, signal) => {
    child.exitState = { code, signal }
  })
  services.set(name, child)
  return child
}

async function waitReady(name, baseUrl) {
  const child = services.get(name)
  const deadline = Date.now() + READY_TIMEOUT_MS
  let last = 'no answer'
  while (Date.now() < deadline) {
    if (child?.exitState) {
      throw new Error(`${name} exited before it was ready (${JSON.stringify(child.exitState)})`)
    }
    try {
      const res = await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2_000) })
      last = `${res.status} ${await res.text()}`
      if (res.status === 200) return
    } catch (error) {
      last = String(error?.cause?.code ?? error)
    }
    await sleep(250)
  }
  throw new Error(`${name} not ready at ${baseUrl}/ready within ${READY_TIMEOUT_MS} ms: ${last}`)
}

/** During the drain after SIGTERM: /ready says 503 shutting_down, /health still answers 200. */
async function checkDrain(name, baseUrl) {
  const ready = await fetch(`${baseUrl}/ready`)
  const body = await ready.json()
  const health = await fetch(`${baseUrl}/health`)
  await health.arrayBuffer()
  if (ready.status !== 503 || body.status !== 'shutting_down' || health.status !== 200) {
    failures.push(
      `${name} while draining: /ready ${ready.status} ${JSON.stringify(body)}, /health ${health.status}`,
    )
  } else {
    log(`${name} drains: /ready 503 shutting_down while /health still answers 200`)
  }
}

/** SIGTERM, then expects exit code 0 within STOP_TIMEOUT_MS (SIGKILL and a failure otherwise). */
async function stopService(name, baseUrl) {
  const child = services.get(name)
  if (!child) return
  services.delete(name)
  if (child.exitState) {
    failures.push(`${name} had already exited: ${JSON.stringify(child.exitState)}`)
    return
  }
  const started = Date.now()
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  if (baseUrl) {
    await sleep(200)
    await checkDrain(name, baseUrl).catch((error) => failures.push(`${name} drain: ${error}`))
  }
  const result = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => 'timeout')])
  if (result === 'timeout') {
    child.kill('SIGKILL')
    await exited
    failures.push(`${name} did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM`)
    return
  }
  const [code, signal] = result
  const ms = Date.now() - started
  if (code === 0) log(`${name} stopped gracefully on SIGTERM in ${ms} ms (exit 0)`)
  else failures.push(`${name} exited with code ${code} signal ${signal} after SIGTERM`)
}

let cleaningUp = null
async function cleanUp() {
  cleaningUp ??= (async () => {
    for (const name of [...services.keys()]) await stopService(name, baseUrls.get(name))
    try {
      await dropDatabases()
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

  await createDatabases()
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
  startService('quotes', 'apps/quotes/dist/server.js', {
    ...common,
    PORT: String(quotesPort),
    DATABASE_URL: dbUrl(databases.quotes),
  })
  startService('data-api', 'apps/data-api/dist/server.js', {
    ...common,
    PORT: String(dataPort),
    DATABASE_URL: dbUrl(databases.data),
    SESSION_SECRET: sessionSecret,
    // Every run signs up a handful of users from this one address.
    AUTH_RATE_LIMIT_PER_ADDRESS: '1000',
  })
  const urls = {
    QUOTES_URL: `http://127.0.0.1:${quotesPort}`,
    DATA_API_URL: `http://127.0.0.1:${dataPort}`,
  }
  baseUrls.set('quotes', urls.QUOTES_URL)
  baseUrls.set('data-api', urls.DATA_API_URL)
  const readyStart = Date.now()
  await Promise.all([
    waitReady('quotes', urls.QUOTES_URL),
    waitReady('data-api', urls.DATA_API_URL),
  ])
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
