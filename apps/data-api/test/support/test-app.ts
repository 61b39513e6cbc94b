import { createServiceTestApp, type ServiceTestApp } from '@repo/service-kit/testing'
import app from '../../src/app.js'
import { type DataApiConfig, loadDataApiConfig } from '../../src/config.js'
import type { Clock } from '../../src/lib/clock.js'
import { prepareDatabase } from '../../src/lib/database.js'
import { serverOverrides } from '../../src/server-options.js'

export type TestApp = ServiceTestApp<DataApiConfig>

export interface TestAppOptions {
  env?: Record<string, string>
  clock?: Clock
  /** Share another app's database and Redis namespace (a second instance of the service). */
  shareWith?: TestApp
  /** A Postgres of the test's own (startPrivatePostgres), instead of the machine's. */
  pgAdminUrl?: string
}

/** A settable clock: `clock.now = new Date(...)` moves time for the app. */
export function movableClock(start = new Date()): Clock & { now: Date } {
  const clock = (() => clock.now) as Clock & { now: Date }
  clock.now = start
  return clock
}

/**
 * The real data service on a fresh, migrated database and its own Redis key prefix.
 * `env` overrides configuration as environment variables would.
 */
export function createTestApp(label: string, opts: TestAppOptions = {}): Promise<TestApp> {
  return createServiceTestApp({
    label: `data_${label}`,
    loadConfig: loadDataApiConfig,
    prepareDatabase,
    app,
    env: {
      SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
      // The suites run side by side on a few cores, every process at nice 0: feature threads at
      // the production default (19) would get almost no CPU and miss their budgets. The nice
      // value's effect is tested in test/unit/features/thread-priority.test.ts.
      FEATURE_THREAD_NICE: '0',
      ...opts.env,
    },
    appOptions: opts.clock ? { clock: opts.clock } : {},
    fastifyOverrides: serverOverrides,
    ...(opts.shareWith ? { shareWith: opts.shareWith } : {}),
    ...(opts.pgAdminUrl ? { pgAdminUrl: opts.pgAdminUrl } : {}),
  })
}
