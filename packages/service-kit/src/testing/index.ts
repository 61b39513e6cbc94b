export { CHROMIUM_PATH, launchBrowser } from './browser.js'
export {
  PGBOUNCER_PATH,
  PGBOUNCER_USER,
  type PgBouncer,
  type StartPgBouncerOptions,
  startPgBouncer,
} from './pgbouncer.js'
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
