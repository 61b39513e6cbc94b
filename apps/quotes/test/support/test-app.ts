import { createServiceTestApp, type ServiceTestApp } from '@repo/service-kit/testing'
import { afterAll, beforeAll } from 'vitest'
import app from '../../src/app.js'
import { loadQuotesConfig, type QuotesConfig } from '../../src/config.js'
import { prepareDatabase } from '../../src/lib/database.js'

export type TestApp = ServiceTestApp<QuotesConfig>

/** Headers asking for JSON. */
export const JSON_ACCEPT = { accept: 'application/json' }

/**
 * The real quotes app on a fresh, migrated and seeded database and its own Redis key prefix.
 * `env` overrides configuration as environment variables would.
 */
export function createTestApp(
  label: string,
  env: Record<string, string> = {},
  {
    pgAdminUrl,
    now,
    shareWith,
  }: { pgAdminUrl?: string; now?: () => Date; shareWith?: Pick<TestApp, 'db' | 'redis'> } = {},
): Promise<TestApp> {
  return createServiceTestApp({
    label: `quotes_${label}`,
    loadConfig: loadQuotesConfig,
    prepareDatabase,
    app,
    env,
    ...(pgAdminUrl ? { pgAdminUrl } : {}),
    ...(now ? { appOptions: { now } } : {}),
    ...(shareWith ? { shareWith } : {}),
  })
}

/**
 * The app of a test file: created before its tests and closed after them. The handle stands for
 * the app once beforeAll has run (reading it earlier throws).
 */
export function useTestApp(label: string, env: Record<string, string> = {}): TestApp {
  let current: TestApp | undefined
  beforeAll(async () => {
    current = await createTestApp(label, env)
  })
  afterAll(async () => {
    await current?.close()
  })
  return new Proxy({} as TestApp, {
    get(_, property) {
      if (!current) throw new Error(`the ${label} test app is used before it started`)
      return Reflect.get(current, property)
    },
  })
}
