// The stores of an end-to-end run: fresh databases on the admin Postgres, the shared Redis.
import { once } from 'node:events'
import { createServer } from 'node:net'
import pg from 'pg'

export const PG_ADMIN_URL =
  process.env.E2E_PG_ADMIN_URL ||
  process.env.TEST_PG_ADMIN_URL ||
  'postgres://postgres@127.0.0.1:5432/postgres'
export const REDIS_URL =
  process.env.E2E_REDIS_URL || process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'

/** A port nothing listens on right now (the OS picks it). */
export async function freePort() {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address()
  server.close()
  await once(server, 'close')
  return port
}

/** The URL of database `name` on the admin Postgres. */
export function dbUrl(name) {
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

/** @param {string[]} names */
export async function createDatabases(names) {
  await withAdmin(async (client) => {
    for (const name of names) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`)
    }
  })
}

/** @param {string[]} names */
export async function dropDatabases(names) {
  await withAdmin(async (client) => {
    for (const name of names) {
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`)
    }
  })
}
