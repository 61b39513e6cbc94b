import closeWithGrace from 'close-with-grace'
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
} from 'fastify'
import { pino } from 'pino'
import type { BaseConfig } from './config.js'
import { fastifyOptions } from './fastify-options.js'

export interface StartServerOptions<C extends BaseConfig> {
  config: C
  app: FastifyPluginAsync<{ config: C }>
  /** Runs before the app is built, e.g. migrations. */
  beforeStart?: (log: FastifyInstance['log']) => Promise<void>
  /** Options this service sets differently from fastifyOptions' defaults. */
  fastifyOverrides?: FastifyServerOptions
}

/**
 * Owns what app.ts must not: the Fastify options, listening, and graceful shutdown. On SIGTERM
 * or SIGINT the server stops accepting, finishes in-flight requests, then closes the pools
 * (plugins' onClose hooks); a second signal or the grace period ending exits at once.
 */
export async function startServer<C extends BaseConfig>(opts: StartServerOptions<C>) {
  const { config } = opts
  // Buffered, asynchronous log writes: a write(2) per request line costs more than the request.
  // Flushed at least every 250 ms, and synchronously at exit.
  const logStream = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 })
  const server = Fastify(fastifyOptions(config, { ...opts.fastifyOverrides, logStream }))

  closeWithGrace({ delay: config.SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err) server.log.error({ err }, 'shutting down after an uncaught error')
    else server.log.info({ signal }, 'shutting down gracefully')
    await server.close()
    server.log.info('closed')
    logStream.flushSync()
  })

  try {
    await opts.beforeStart?.(server.log)
    await server.register(opts.app, { config })
    await server.listen({ host: config.HOST, port: config.PORT })
  } catch (error) {
    server.log.fatal({ err: error }, 'failed to start')
    await server.close().catch(() => {})
    logStream.flushSync()
    process.exit(1)
  }
  return server
}
