export type { SwaggerOptions } from '@fastify/swagger'
export type { FastifyViewOptions } from '@fastify/view'
export { Counter } from 'prom-client'
export {
  type BaseConfig,
  baseConfigProperties,
  ConfigError,
  LOG_LEVELS,
  loadConfig,
} from './config.js'
export { answers, EMBEDDED_REDIS_URL, resolveStores } from './embedded.js'
export { HttpProblem } from './errors.js'
export { fastifyOptions } from './fastify-options.js'
export { ensureDatabase, type MigrateOptions, migrate } from './migrate.js'
export {
  default as healthPlugin,
  type HealthPluginOptions,
  type ReadinessCheck,
} from './plugins/health.js'
export { default as metricsPlugin } from './plugins/metrics.js'
export { default as openApiPlugin, type OpenApiPluginOptions } from './plugins/openapi.js'
export { default as pagesPlugin, type PagesPluginOptions } from './plugins/pages.js'
export { default as platformPlugin, type PlatformOptions } from './plugins/platform.js'
export { default as postgresPlugin, type PostgresPluginOptions } from './plugins/postgres.js'
export {
  buildProblem,
  classifyError,
  default as problemsPlugin,
  type ProblemRenderer,
  sendProblemJson,
} from './plugins/problems.js'
export {
  createRedisClient,
  default as redisPlugin,
  type RedisPluginOptions,
} from './plugins/redis.js'
export { default as requestLogPlugin } from './plugins/request-log.js'
export { default as responseHeadersPlugin, helmetHeaders } from './plugins/response-headers.js'
export {
  default as responsePipelinePlugin,
  type ResponseStep,
} from './plugins/response-pipeline.js'
export { type BatchedStoreOptions, batchedRedisStore } from './rate-limit-store.js'
export { redactUrl } from './redact.js'
export { type StartServerOptions, startServer } from './server.js'
