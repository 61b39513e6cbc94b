import closeWithGrace from 'close-with-grace'
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
} from 'fastify'
import fp from 'fastify-plugin'
import type { BaseConfig } from './config.js'
import { resolveConfigStores } from './embedded.js'
import { fastifyOptions } from './fastify-options.js'
import { logDestination } from './log-destination.js'

export interface StartServerOptions<C extends BaseConfig> {
  /** The service's name: names its embedded-store folder and its log lines. */
  name: string
  config: C
  app: FastifyPluginAsync<{ config: C }>
  /** Runs before the app is built, e.g. migrations. */
  beforeStart?: (log: FastifyInstance['log'], config: C) => Promise<void>
  /** Options this service sets differently from fastifyOptions' defaults. */
  fastifyOverrides?: FastifyServerOptions
  /** The file descriptor the log is written to (default: stdout). */
  logDestination?: number
}

/**
 * Owns what app.ts must not: the Fastify options, listening, and graceful shutdown. On SIGTERM
 * or SIGINT the server first drains (SHUTDOWN_DRAIN_MS: /ready answers 503 so load balancers
 * stop routing here, while requests are still served), then stops accepting, finishes in-flight
 * requests and closes idle connections, then closes the pools (plugins' onClose hooks); a second
 * signal or the grace period ending exits at once.
 */
export async function startServer<C extends BaseConfig>(opts: StartServerOptions<C>) {
  let config = opts.config
  const logStream = logDestination(opts.logDestination)
  const server = Fastify(fastifyOptions(config, { ...opts.fastifyOverrides, logStream }))

  const drainMs = config.SHUTDOWN_DRAIN_MS
  closeWithGrace({ delay: drainMs + config.SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err) server.log.error({ err }, 'shutting down after an uncaught error')
    else server.log.info({ signal, drain_ms: drainMs }, 'shutting down gracefully')
    if (!err && drainMs > 0 && server.hasDecorator('drain')) {
      server.drain()
      await new Promise((resolve) => setTimeout(resolve, drainMs))
    }
    await server.close()
    server.log.info('closed')
    logStream.flushSync()
  })

  try {
    const resolved = await resolveConfigStores(opts.name, config)
    const stores = resolved.stores
    if (stores.embedded.postgres || stores.embedded.redis) {
      config = resolved.config
      server.log.warn(
        {
          postgres: stores.embedded.postgres ? `PGlite in ${stores.embedded.postgres}` : 'external',
          redis: stores.embedded.redis ? 'in-process (counts reset on restart)' : 'external',
        },
        `*** ${opts.name} is running on EMBEDDED STORES: no Postgres/Redis was configured or ` +
          'answering. Fine for trying it out; not for production (set DATABASE_URL and REDIS_URL, ' +
          'or EMBEDDED_STORES=off to fail instead). ***',
      )
      server.addHook('onClose', async () => stores.close())
    }
    await opts.beforeStart?.(server.log, config)
    // As a plugin of the root, like the tests build it: its decorators (drain) are the server's.
    await server.register(fp(opts.app), { config })
    await server.listen({ host: config.HOST, port: config.PORT })
  } catch (error) {
    server.log.fatal({ err: error }, 'failed to start')
    await server.close().catch(() => {})
    logStream.flushSync()
    process.exit(1)
  }
  return server
}
