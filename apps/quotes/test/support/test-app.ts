import { createServiceTestApp, type ServiceTestApp } from '@repo/service-kit/testing'
import app from '../../src/app.js'
import { loadQuotesConfig, type QuotesConfig } from '../../src/config.js'
import { prepareDatabase } from '../../src/lib/database.js'

export type TestApp = ServiceTestApp<QuotesConfig>

/**
 * The real quotes app on a fresh, migrated and seeded database and its own Redis key prefix.
 * `env` overrides configuration as environment variables would.
 */
export function createTestApp(
  label: string,
  env: Record<string, string> = {},
  { pgAdminUrl, now }: { pgAdminUrl?: string; now?: () => Date } = {},
): Promise<TestApp> {
  return createServiceTestApp({
    label: `quotes_${label}`,
    loadConfig: loadQuotesConfig,
    prepareDatabase,
    app,
    env,
    ...(pgAdminUrl ? { pgAdminUrl } : {}),
    ...(now ? { appOptions: { now } } : {}),
  })
}
