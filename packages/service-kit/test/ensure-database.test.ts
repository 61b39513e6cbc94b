import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { ensureDatabase, UnreachableError } from '../src/migrate.js'
import { freePort, PG_ADMIN_URL, queryRows } from '../src/testing/index.js'
import { recordedLog } from './support/recorded-log.js'
import { startTcpRelay } from './support/tcp-relay.js'
import { createTestRole } from './support/test-role.js'

// ensureDatabase against the machine's Postgres: a missing database is created (by a superuser or
// a role that may create databases) once however many replicas race to, a refusal is passed on,
// and a Postgres that does not answer is said to be unreachable. Through PgBouncer: migrate.test.ts.

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The URL of a database that does not exist yet (dropped after the test if it gets created). */
function missingDatabase(label: string) {
  const name = `test_kit_${label}_${randomBytes(4).toString('hex')}`
  cleanups.push(async () => {
    await queryRows(PG_ADMIN_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })
  const url = new URL(PG_ADMIN_URL)
  url.pathname = `/${name}`
  return { name, url: url.toString() }
}

async function role(attributes = '') {
  const made = await createTestRole(attributes)
  // Registered before the databases it creates: dropped after them.
  cleanups.unshift(made.drop)
  return made
}

const owner = async (name: string) =>
  (
    await queryRows<{ owner: string }>(
      PG_ADMIN_URL,
      `SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = '${name}'`,
    )
  )[0]?.owner

describe('ensureDatabase', () => {
  it('creates a missing database and says so', async () => {
    const { name, url } = missingDatabase('create')
    const { log, calls } = recordedLog()
    await ensureDatabase(url, log)
    expect(await queryRows(url, 'SELECT current_database() AS name')).toEqual([{ name }])
    expect(calls).toEqual({ info: [[{ database: name }, 'created database']], warn: [] })
  })

  it('creates it once however many replicas race to, and every one of them goes on', async () => {
    const { name, url } = missingDatabase('race')
    const runs = await Promise.allSettled([1, 2, 3, 4].map(() => ensureDatabase(url)))
    expect(runs.map((run) => (run.status === 'rejected' ? run.reason : run.status))).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ])
    expect(await owner(name)).toBe(new URL(PG_ADMIN_URL).username)
  })

  it('goes on when another replica creates the database between its look and its CREATE', async () => {
    const { name } = missingDatabase('meanwhile')
    const postgres = new URL(PG_ADMIN_URL)
    // Its first connection finds no database; the second, to create it, waits at the relay.
    const relay = await startTcpRelay(
      { host: postgres.hostname, port: Number(postgres.port || 5432) },
      2,
    )
    cleanups.push(relay.close)
    const url = new URL(PG_ADMIN_URL)
    url.host = `127.0.0.1:${relay.port}`
    url.pathname = `/${name}`
    const { log, calls } = recordedLog()
    const ensuring = ensureDatabase(url.toString(), log)
    await relay.held
    await queryRows(PG_ADMIN_URL, `CREATE DATABASE ${name}`)
    relay.release()
    await ensuring
    expect(calls).toEqual({ info: [], warn: [] })
  })

  it('creates it as a role that may create databases (asking from its postgres database)', async () => {
    const creator = await role('CREATEDB')
    const { name, url } = missingDatabase('createdb')
    await ensureDatabase(creator.urlFor(url))
    expect(await owner(name)).toBe(creator.name)
  })

  it('passes Postgres’s refusal on to a role that may not create databases', async () => {
    const plain = await role()
    const { name, url } = missingDatabase('refused')
    await expect(ensureDatabase(plain.urlFor(url))).rejects.toMatchObject({
      code: '42501',
      message: 'permission denied to create database',
    })
    expect(await owner(name)).toBeUndefined()
  })

  it('says Postgres is unreachable, naming where without the password', async () => {
    const port = await freePort()
    const refused = ensureDatabase(`postgres://app:secret@127.0.0.1:${port}/things`)
    await expect(refused).rejects.toThrow(UnreachableError)
    await expect(refused).rejects.toMatchObject({
      name: 'UnreachableError',
      message: `Postgres is not reachable at postgres://app:***@127.0.0.1:${port}/things: connect ECONNREFUSED 127.0.0.1:${port}`,
      cause: { code: 'ECONNREFUSED' },
    })
  })
})
