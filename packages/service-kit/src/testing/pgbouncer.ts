import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { answers } from '../embedded.js'
import { freePort } from './processes.js'
import { PG_ADMIN_URL } from './stores.js'

/** Debian's PgBouncer (`apt-get install pgbouncer`; .ci/run installs it when missing). */
export const PGBOUNCER_PATH = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer'
/** PgBouncer refuses to run as root: under root the helper runs it as this user. */
export const PGBOUNCER_USER = process.env.PGBOUNCER_USER ?? 'postgres'

export interface PgBouncer {
  port: number
  /** Its temporary directory: pgbouncer.ini, pgbouncer.log, the pid file and the socket. */
  dir: string
  /** The URL of database `dbName` through this PgBouncer. */
  url: (dbName: string) => string
  /** Stops it (every client connection is cut) and starts it again on the same port. */
  restart: () => Promise<void>
  /** Stops it and removes its directory. */
  stop: () => Promise<void>
}

export interface StartPgBouncerOptions {
  /** The Postgres every database is pooled to (host, port, user, password); PG_ADMIN_URL. */
  targetUrl?: string
}

/**
 * What to do, synchronously, if the test process ends before stop(): kill each running
 * PgBouncer and remove its directory. Runs at exit and on SIGINT/SIGTERM (which would otherwise
 * end the process without 'exit' listeners), then lets the signal take its default course.
 */
const atExit = new Set<() => void>()
function cleanUpAll() {
  for (const cleanUp of atExit) cleanUp()
  atExit.clear()
}
function onSignal(signal: NodeJS.Signals) {
  cleanUpAll()
  process.removeListener('SIGINT', onSignal)
  process.removeListener('SIGTERM', onSignal)
  process.kill(process.pid, signal)
}
function cleanUpAtExit(cleanUp: () => void): () => void {
  if (atExit.size === 0) {
    process.once('exit', cleanUpAll)
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
  }
  atExit.add(cleanUp)
  return () => {
    atExit.delete(cleanUp)
    if (atExit.size > 0) return
    process.removeListener('exit', cleanUpAll)
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
  }
}

/** Quotes a libpq connection-string value. */
const libpqValue = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

function iniFile(dir: string, port: number, target: URL): string {
  const server = [
    `host=${target.hostname.replace(/^\[|\]$/g, '')}`,
    `port=${target.port || 5432}`,
    `user=${libpqValue(decodeURIComponent(target.username || 'postgres'))}`,
    ...(target.password ? [`password=${libpqValue(decodeURIComponent(target.password))}`] : []),
  ].join(' ')
  // Transaction pooling and nothing else changed from PgBouncer's defaults: in particular no
  // ignore_startup_parameters, so a client sending statement_timeout & co. is refused.
  return `[databases]
* = ${server}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir = ${dir}
logfile = ${join(dir, 'pgbouncer.log')}
pidfile = ${join(dir, 'pgbouncer.pid')}
auth_type = any
pool_mode = transaction
`
}

/**
 * Starts Debian's PgBouncer for a test: transaction pooling, otherwise its default settings,
 * every database (`* =`) pooled to the test Postgres as its user (`auth_type = any`: whatever
 * user a client names, the server connection logs in as that one), on a free port, with its
 * ini, log, pid file and socket in a temporary directory. Resolves once it accepts connections.
 *
 * It runs under `setpriv --pdeathsig KILL`, so it dies with the test process even when that is
 * killed outright; as root (PgBouncer refuses to run as root) setpriv also switches it to
 * PGBOUNCER_USER, which then owns the directory. `stop()` belongs in afterAll; the process
 * exiting, or ending on SIGINT/SIGTERM, stops it and removes the directory too.
 */
export async function startPgBouncer(opts: StartPgBouncerOptions = {}): Promise<PgBouncer> {
  if (!existsSync(PGBOUNCER_PATH)) {
    throw new Error(`PgBouncer is not installed at ${PGBOUNCER_PATH} (apt-get install pgbouncer)`)
  }
  const target = new URL(opts.targetUrl ?? PG_ADMIN_URL)
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'))
  const ini = join(dir, 'pgbouncer.ini')
  const asRoot = process.getuid?.() === 0
  const command = asRoot
    ? ['--reuid', PGBOUNCER_USER, '--regid', PGBOUNCER_USER, '--init-groups']
    : []
  if (asRoot) {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, PGBOUNCER_USER], { encoding: 'utf8' }).trim())
    chownSync(dir, id('-u'), id('-g'))
  }

  let child: ChildProcess | undefined
  let port = 0
  const forget = cleanUpAtExit(() => {
    child?.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  })

  const logTail = () => {
    const file = join(dir, 'pgbouncer.log')
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-5).join('\n') : ''
  }

  async function launch(): Promise<void> {
    writeFileSync(ini, iniFile(dir, port, target), { mode: 0o644 })
    const started = spawn(
      'setpriv',
      [...command, '--pdeathsig', 'KILL', PGBOUNCER_PATH, '--quiet', ini],
      { stdio: 'ignore' },
    )
    child = started
    let exited = false
    started.once('exit', () => {
      exited = true
    })
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(25)) {
      if (exited) throw new Error(`PgBouncer exited at start:\n${logTail()}`)
      if (await answers(`postgres://127.0.0.1:${port}`, port)) return
    }
    throw new Error(`PgBouncer did not accept connections within 10 s:\n${logTail()}`)
  }

  async function halt(): Promise<void> {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    // SIGTERM: immediate shutdown, every client connection cut (what a crash or redeploy does).
    running.kill('SIGTERM')
    const stopped = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)])
    if (!stopped) {
      running.kill('SIGKILL')
      await exited
    }
  }

  try {
    // Another process may take the free port before PgBouncer binds it: try another one.
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort()
      try {
        await launch()
        break
      } catch (error) {
        await halt()
        if (attempt >= 3) throw error
      }
    }
  } catch (error) {
    forget()
    rmSync(dir, { recursive: true, force: true })
    throw error
  }

  const user = encodeURIComponent(decodeURIComponent(target.username || 'postgres'))
  return {
    port,
    dir,
    url: (dbName) => `postgres://${user}@127.0.0.1:${port}/${encodeURIComponent(dbName)}`,
    restart: async () => {
      await halt()
      await launch()
    },
    stop: async () => {
      await halt()
      forget()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
