// What the services use. The plugins behind platformPlugin stay internal to this package; their
// types are re-exported so their `declare module 'fastify'` decorations (fastify.pg, fastify.redis,
// fastify.dependencyErrors, reply.viewAsync, route `schema.hide`, ...) reach the services.
export type { SwaggerOptions } from '@fastify/swagger'
export type { FastifyViewOptions } from '@fastify/view'
export { Counter, Gauge } from 'prom-client'
export { addressKey, requestAddressKey } from './address-key.js'
export { type BoundedCacheOptions, boundedCache } from './bounded-cache.js'
export {
  CliError,
  commandLog,
  runCommand,
  UsageError,
  withCommandStores,
} from './cli.js'
export {
  type BaseConfig,
  baseConfigProperties,
  ConfigError,
  loadConfig,
  migrationUrl,
} from './config.js'
export { DependencyState, type DependencyStatus } from './dependency-state.js'
export { type DescribableAppOptions, describeService } from './describe.js'
export { EMBEDDED_REDIS_URL, resolveStores } from './embedded.js'
export { HttpProblem } from './errors.js'
export { fastifyOptions } from './fastify-options.js'
export { type MigrateOptions, migrate } from './migrate.js'
export type { default as ClientAddressPlugin } from './plugins/client-address.js'
export type { default as MetricsPlugin } from './plugins/metrics.js'
export { type Documented, documentedAs, type OpenApiPluginOptions } from './plugins/openapi.js'
export { default as platformPlugin, type PlatformOptions } from './plugins/platform.js'
export type { PostgresPluginOptions } from './plugins/postgres.js'
export {
  default as problemsPlugin,
  type ProblemRenderer,
  sendProblemJson,
} from './plugins/problems.js'
export type { RedisPluginOptions } from './plugins/redis.js'
export type { ResponseStep } from './plugins/response-pipeline.js'
export {
  REDIS_RETRY_MS,
  type SharedCounterOptions,
  sharedCounterStore,
} from './rate-limit-store.js'
export { createRedisClient, isCluster, type RedisClient } from './redis/client.js'
export { type ChannelSubscriber, type SubscriberHandlers, subscribe } from './redis/subscriber.js'
export { turnWrites } from './redis/turn-writes.js'
export { seededRandom } from './seeded-random.js'
export { type StartServerOptions, startServer } from './server.js'
export { type FieldRule, parseUrlEncoded, textProblem } from './text-input.js'
export { DEFAULT_STATEMENT_TIMEOUT_MS, type TransactOptions, transact } from './transact.js'
export { isUnavailable } from './unavailable.js'
