import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import pg from 'pg'
import { DependencyState } from '../dependency-state.js'
import { redactUrl } from '../redact.js'

declare module 'fastify' {
  interface FastifyInstance {
    pg: pg.Pool
    /** Whether Postgres answers, from what the pool sees (one log line per change). */
    postgresState: DependencyState
  }
}

export interface PostgresPluginOptions {
  connectionString: string
  max?: number
  /**
   * Connections kept open however long they stay idle (default 1): a connection idle longer than
   * `idleTimeoutMs` is closed only while the pool holds more than this. A new connection is a new
   * Postgres process, whose first statements pay for its catalog caches, its plans and its first
   * touch of each shared buffer: at a million quotes the first search after a quiet half minute
   * took 35-90 ms on a new connection and 17-45 ms on the kept one (bench/README.md, "A
   * sixteenth machine").
   */
  min?: number
  /** How long an idle connection above `min` is kept (default 30 s). */
  idleTimeoutMs?: number
  /** Shown in pg_stat_activity, so operators can tell the services' connections apart. */
  applicationName?: string
  /**
   * Prove the pool can connect before the app is ready (default). false: no connection is made
   * (describing the API: see describeService).
   */
  connect?: boolean
}

/**
 * Owns the pool: creates it, proves it can connect (so `ready()` fails fast when Postgres is
 * missing), and ends it on close.
 */
const postgresPlugin: FastifyPluginAsync<PostgresPluginOptions> = async (fastify, opts) => {
  const pool = new pg.Pool({
    connectionString: opts.connectionString,
    max: opts.max ?? 10,
    min: opts.min ?? 1,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: opts.idleTimeoutMs ?? 30_000,
    // The start-up packet carries user, database, application_name and client_encoding (pg
    // always adds it) and nothing else: the parameters PgBouncer tracks. With its default
    // settings a transaction-mode PgBouncer refuses any other, statement_timeout included. A
    // stuck query must still not hold a request (and a pool slot) forever: single statements
    // get the default `migrate` stores with the database, and Postgres itself cancels them (a
    // client-side query_timeout would only stop waiting, leaving the query running on the
    // server and costing the pool its connection); transactions set their own (see transact).
    application_name: opts.applicationName,
  })
  const state = new DependencyState({
    name: 'postgres',
    log: fastify.log,
    onFailure: () => fastify.dependencyErrors?.inc({ dependency: 'postgres' }),
    onChange: (status) =>
      fastify.dependencyUp?.set({ dependency: 'postgres' }, status === 'up' ? 1 : 0),
  })
  // An idle client losing its connection emits here; without a listener it would crash the process.
  pool.on('error', (error) => state.down(error))
  // A new connection after an outage: Postgres is back.
  pool.on('connect', () => state.up())
  try {
    // Stryker disable next-line StringLiteral: an empty query proves the connection as well
    if (opts.connect !== false) await pool.query('SELECT 1')
  } catch (error) {
    await pool.end()
    throw new Error(
      `Postgres is not reachable at ${redactUrl(opts.connectionString)}: ${(error as Error).message}`,
    )
  }
  // Only a pool that connected is handed out, and ended once, on close.
  fastify.decorate('pg', pool)
  fastify.decorate('postgresState', state)
  fastify.dependencyUp?.set({ dependency: 'postgres' }, 1)
  fastify.addHook('onClose', async () => {
    await pool.end()
  })
}

// Metrics (dependencyErrors, dependencyUp) are reported when the metrics plugin is registered.
export default fp(postgresPlugin, { name: 'postgres', fastify: '5.x' })
