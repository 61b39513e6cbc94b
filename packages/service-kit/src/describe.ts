import Fastify, { type FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { BaseConfig } from './config.js'
import { fastifyOptions } from './fastify-options.js'

/** What an app accepts to be built for its description only (see PlatformOptions.describeOnly). */
export interface DescribableAppOptions<C> {
  config: C
  describeOnly?: boolean
}

/**
 * The service's OpenAPI document, exactly as it serves it at /docs/json, without Postgres or
 * Redis: the app is built with `describeOnly` (no connection is made, nothing is loaded), made
 * ready, asked for its document and closed. Used by `pnpm openapi` to write openapi/*.json.
 */
export async function describeService<C extends BaseConfig>(
  app: FastifyPluginAsync<DescribableAppOptions<C>>,
  config: C,
): Promise<Record<string, unknown>> {
  const server = Fastify(fastifyOptions({ ...config, LOG_LEVEL: 'warn' }))
  try {
    await server.register(fp(app), { config, describeOnly: true })
    await server.ready()
    return server.swagger() as unknown as Record<string, unknown>
  } finally {
    await server.close()
  }
}
