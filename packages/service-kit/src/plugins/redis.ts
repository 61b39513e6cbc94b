import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { Redis } from 'ioredis'
import { EMBEDDED_REDIS_URL, embeddedRedis } from '../embedded.js'
import { redactUrl } from '../redact.js'

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis
  }
}

export interface RedisPluginOptions {
  url: string
  keyPrefix?: string
  /** Milliseconds a command may take before it fails (so an unresponsive Redis cannot stall requests). */
  commandTimeout?: number
}

export function createRedisClient(opts: RedisPluginOptions): Redis {
  if (opts.url === EMBEDDED_REDIS_URL) {
    // In-process Redis for a local run without one; instances share data and pub/sub.
    return embeddedRedis({ keyPrefix: opts.keyPrefix ?? '', lazyConnect: true })
  }
  return new Redis(opts.url, {
    keyPrefix: opts.keyPrefix ?? '',
    // Fail commands at once while disconnected instead of queueing them: callers decide
    // whether to fail open or closed, and requests never pile up behind a dead connection.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: opts.commandTimeout ?? 1_000,
    connectTimeout: 2_000,
    lazyConnect: true,
    // Measured: auto-pipelining cost more (a tick's delay and batching work per command) than it
    // saved on these one-command-per-request paths.
    enableAutoPipelining: false,
    // Reconnect forever, backing off to one attempt per 2 s.
    retryStrategy: (times) => Math.min(times * 100, 2_000),
  })
}

const redisPlugin: FastifyPluginAsync<RedisPluginOptions> = async (fastify, opts) => {
  const client = createRedisClient(opts)
  let reported = false
  client.on('error', (error: Error) => {
    // ioredis emits on every failed reconnect; one warning per outage is enough.
    if (!reported) fastify.log.warn({ err: error }, 'redis connection error')
    reported = true
  })
  client.on('ready', () => {
    if (reported) fastify.log.info('redis connection restored')
    reported = false
  })
  try {
    // Connect now and wait until ready, so `app.ready()` fails fast when Redis is missing (the
    // embedded client is ready at once).
    if (client.status === 'wait') await client.connect()
  } catch (error) {
    client.disconnect()
    throw new Error(`Redis is not reachable at ${redactUrl(opts.url)}: ${(error as Error).message}`)
  }
  fastify.decorate('redis', client)
  fastify.addHook('onClose', async () => {
    await client.quit().catch(() => client.disconnect())
  })
}

export default fp(redisPlugin, { name: 'redis', fastify: '5.x' })
