export { CHROMIUM_PATH, launchBrowser } from './browser.js'
export { type PrivatePostgres, startPrivatePostgres } from './private-postgres.js'
export { freePort, type Spawned, spawnServer, waitFor } from './processes.js'
export {
  type PrivateRedis,
  type RedisClusterNode,
  type RedisClusterOptions,
  startPrivateRedis,
  startRedisCluster,
  type TestRedisCluster,
} from './redis-servers.js'
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
