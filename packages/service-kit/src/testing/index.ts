export { CHROMIUM_PATH, launchBrowser } from './browser.js'
export { type EmbeddedAppOptions, withEmbeddedApp } from './embedded-app.js'
export { envExampleProblems } from './env-example.js'
export {
  hostileHeaders,
  hostileJson,
  hostileMethod,
  hostilePathSegment,
  hostileQuery,
  hostileText,
  type RawRequest,
  sendRaw,
} from './hostile.js'
export { type Recovery, type RecoveryOptions, restartUnderLoad } from './outage.js'
export { queryRows, withPgClient } from './pg-client.js'
export {
  PGBOUNCER_PATH,
  PGBOUNCER_USER,
  type PgBouncer,
  type StartPgBouncerOptions,
  startPgBouncer,
} from './pgbouncer.js'
export { oneByteOver, oneByteOverProblem } from './plan-limits.js'
export { type PrivatePostgres, startPrivatePostgres } from './private-postgres.js'
export {
  freePort,
  runScript,
  type ScriptResult,
  type Spawned,
  spawnServer,
  waitFor,
} from './processes.js'
export {
  addRedisUser,
  type PrivateRedis,
  type RedisClusterNode,
  type RedisClusterOptions,
  startPrivateRedis,
  startRedisCluster,
  type TestRedisCluster,
} from './redis-servers.js'
export {
  type Replica,
  type Replicas,
  type StartReplicasOptions,
  startReplicas,
} from './replicas.js'
export {
  createServiceTestApp,
  type ServiceTestApp,
  type ServiceTestAppOptions,
} from './service-app.js'
export {
  createTestDatabase,
  deleteRedisKeys,
  PG_ADMIN_URL,
  TEST_REDIS_URL,
  type TestDatabase,
  type TestRedisNamespace,
  testRedisNamespace,
} from './stores.js'
