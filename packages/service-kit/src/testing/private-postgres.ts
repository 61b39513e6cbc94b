import { execFile } from 'node:child_process'
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { freePort, waitFor } from './processes.js'

const run = promisify(execFile)

/** Where Debian keeps the server binaries (initdb, pg_ctl); override with TEST_PG_BIN. */
function binDir(): string {
  return process.env.TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin'
}

export interface PrivatePostgres {
  port: number
  /** A connection URL for `database` (trust auth, user postgres). */
  url: (database?: string) => string
  start: () => Promise<void>
  /** Stops it at once (`pg_ctl stop -m immediate`: clients see their connections drop). */
  stop: () => Promise<void>
  close: () => Promise<void>
}

/**
 * A PostgreSQL server of the test's own, made with the machine's initdb in a temporary folder on a
 * free port, for tests that stop and start Postgres under a running service. initdb and the server
 * refuse to run as root: when the tests do, they run as the `postgres` system user (runuser).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = await mkdtemp(join(tmpdir(), 'private-pg-'))
  const data = join(root, 'data')
  const port = await freePort()
  const asRoot = userInfo().uid === 0
  const exec = async (command: string, args: string[]) => {
    const file = join(binDir(), command)
    return asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args)
  }
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: group } = await run('id', ['-g', 'postgres'])
    await chown(root, Number(stdout.trim()), Number(group.trim()))
  }
  await chmod(root, 0o700)
  await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])

  let running = false
  const server: PrivatePostgres = {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => {
      if (running) return
      await exec('pg_ctl', [
        '-D',
        data,
        '-l',
        join(root, 'server.log'),
        '-o',
        `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`,
        '-w',
        'start',
      ])
      running = true
      await waitFor(`postgres on port ${port}`, async () => {
        const client = new pg.Client({ connectionString: server.url() })
        try {
          await client.connect()
          return true
        } finally {
          await client.end().catch(() => {})
        }
      })
    },
    stop: async () => {
      if (!running) return
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      running = false
    },
    close: async () => {
      await server.stop().catch(() => {})
      await rm(root, { recursive: true, force: true })
    },
  }
  try {
    await server.start()
  } catch (error) {
    await server.close()
    throw error
  }
  return server
}
