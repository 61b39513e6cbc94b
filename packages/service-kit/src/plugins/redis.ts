import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { DependencyState } from '../dependency-state.js'
import { redactUrl } from '../redact.js'
import {
  createClusterClient,
  createRedisClient,
  isCluster,
  isClusterNode,
  type RedisClient,
  type RedisClientOptions,
} from '../redis/client.js'
import { redisProbe } from '../redis/probe.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The Redis client: one server, or a Redis Cluster. */
    redis: RedisClient
    /** Whether Redis answers, from the commands sent (one log line per change). */
    redisState: DependencyState
    /** Readiness probe: every master answers (rejects otherwise). */
    redisReady: () => Promise<void>
  }
}

export type RedisPluginOptions = RedisClientOptions & {
  /** Connect at start (default). false: the client is made but never connects (describeService). */
  connect?: boolean
}

// Errors that say the settings are wrong, not that Redis is down: fail the start-up.
const MISCONFIGURED = /NOAUTH|WRONGPASS|invalid password|invalid username|ERR AUTH/i

function clusterMisconfiguration(url: string): Error {
  return Object.assign(
    new Error(
      `REDIS_URL (${redactUrl(url)}) points at a node of a Redis Cluster. Set ` +
        'REDIS_CLUSTER_NODES=host:port[,host:port...] (the nodes of the cluster) so keys are ' +
        'routed to their slots, and restart.',
    ),
    // Readiness: this instance cannot count requests; take it out of rotation.
    { critical: true },
  )
}

/**
 * Owns the Redis client. Single server or Redis Cluster (REDIS_CLUSTER_NODES). A REDIS_URL that
 * points at a cluster node is detected when it connects and used as a cluster seed, with a
 * warning. A Redis that is down at start is not fatal: the service starts degraded and the client
 * reconnects by itself; wrong credentials are fatal (a misconfiguration, not an outage).
 */
const redisPlugin: FastifyPluginAsync<RedisPluginOptions> = async (fastify, opts) => {
  const state = new DependencyState({
    name: 'redis',
    log: fastify.log,
    onFailure: () => fastify.dependencyErrors?.inc({ dependency: 'redis' }),
    onChange: (status) =>
      fastify.dependencyUp?.set({ dependency: 'redis' }, status === 'up' ? 1 : 0),
  })
  fastify.dependencyUp?.set({ dependency: 'redis' }, 1)

  // connect() rejects with "Connection is closed": the reason comes as an 'error' event.
  let lastError: Error | undefined
  function watch(client: RedisClient) {
    client.on('error', (error: Error) => {
      lastError = error
      state.down(error)
    })
    client.on('ready', () => state.up())
  }

  let client = createRedisClient(opts)
  watch(client)
  let misconfigured: Error | undefined
  // Describing the API only (connect: false): the client is never used, so it never connects.
  if (opts.connect !== false) {
    try {
      await client.connect()
      // Not a cluster client: no REDIS_CLUSTER_NODES. A REDIS_URL may still name a cluster node.
      if (!isCluster(client) && (await isClusterNode(client as Redis))) {
        const seed = client as Redis
        fastify.log.warn(
          { redis: redactUrl(opts.url) },
          'REDIS_URL points at a Redis Cluster node: using it as the seed of a cluster client. ' +
            'Set REDIS_CLUSTER_NODES to list several nodes, so a start does not depend on this one.',
        )
        client = createClusterClient([{ host: seed.options.host, port: seed.options.port }], opts)
        seed.disconnect()
        watch(client)
        await client.connect()
      }
    } catch (error) {
      client.disconnect()
      const message = `${(error as Error).message} ${lastError?.message ?? ''}`.trim()
      if (MISCONFIGURED.test(message)) {
        throw new Error(`Redis at ${redactUrl(opts.url)} refused the connection: ${message}`)
      }
      // Down at start: serve degraded, keep trying, and check what it is once it answers.
      state.down(error as Error)
      fastify.log.warn('starting without Redis; it is used as soon as it answers')
      client = createRedisClient(opts)
      watch(client)
      if (!isCluster(client)) {
        const single = client as Redis
        single.once('ready', () => {
          isClusterNode(single)
            .then((cluster) => {
              if (!cluster) return
              misconfigured = clusterMisconfiguration(opts.url)
              // Redis was down at start and turned out to be a cluster node: this client cannot
              // route keys. Say so loudly and fail readiness (a restart detects it at start).
              fastify.log.fatal({ err: misconfigured }, 'redis is misconfigured')
              single.disconnect()
              state.down(misconfigured)
            })
            .catch(() => {})
        })
      }
      client.connect().catch(() => {})
    }
  }

  fastify.decorate<RedisClient>('redis', client)
  fastify.decorate('redisState', state)
  const probe = redisProbe(client)
  fastify.decorate('redisReady', async () => {
    if (misconfigured) throw misconfigured
    await state.track(probe())
  })
  fastify.addHook('onClose', async () => {
    if (opts.connect === false) return client.disconnect()
    await client.quit().catch(() => client.disconnect())
  })
}

// Metrics (dependencyErrors, dependencyUp) are reported when the metrics plugin is registered.
export default fp(redisPlugin, {
  name: 'redis',
  // Stryker disable next-line StringLiteral: with no range fastify-plugin checks nothing, and Fastify 5 passes the check
  fastify: '5.x',
})
