import { baseConfigProperties, loadConfig } from '@repo/service-kit'
import { type Static, Type } from 'typebox'
import type { CookieSecureMode } from './plugins/sessions.js'

export const DataApiConfigSchema = Type.Object({
  ...baseConfigProperties({ port: 3001, database: 'data_api' }),
  /**
   * Signs the dashboard's cookies: at least 32 characters, the same on every replica. When unset,
   * one is made by the first instance that starts and kept in Postgres for all of them.
   */
  SESSION_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  /**
   * `auto`: the session cookie is Secure (named `__Host-session`) over HTTPS (X-Forwarded-Proto
   * from a TRUST_PROXY proxy counts) and on http://localhost, plain elsewhere. `always`: Secure
   * everywhere (pages over plain HTTP say log-in cannot work there). `never`: never Secure.
   * `true`/`false` are read as `always`/`never`.
   */
  COOKIE_SECURE: Type.Enum(['auto', 'always', 'never', 'true', 'false'], { default: 'auto' }),
  /** Active (unrevoked) API keys one user may hold. */
  MAX_ACTIVE_KEYS: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /** When Redis cannot count a request: `open` serves it anyway, `closed` answers 503. */
  QUOTA_FAIL_MODE: Type.Enum(['open', 'closed'], { default: 'open' }),
  /** How long an API-key look-up is reused in memory (revocations invalidate at once). */
  KEY_CACHE_TTL_SECONDS: Type.Integer({ minimum: 0, maximum: 3600, default: 60 }),
  /** How often `last_used_at` is written, batched for all keys used meanwhile. */
  LAST_USED_FLUSH_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 5_000 }),
  /** 401 answers one client address may get per minute before it is answered 429. */
  API_UNAUTHORIZED_PER_ADDRESS: Type.Integer({ minimum: 1, default: 100 }),
  /** Sign-up and log-in attempts per client address per 15 minutes. */
  AUTH_RATE_LIMIT_PER_ADDRESS: Type.Integer({ minimum: 1, default: 20 }),
  /** Failed log-ins per account per 15 minutes before its log-ins are refused. */
  AUTH_RATE_LIMIT_PER_ACCOUNT: Type.Integer({ minimum: 1, default: 10 }),
  /** Worker threads running the features (default: one per core). */
  FEATURE_THREADS: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
  /**
   * Feature threads start at the first feature calls and each stops after this many milliseconds
   * without one (a thread is about 16 MB at rest, 30-40 under load); 0 starts them all with the
   * service and keeps them.
   */
  FEATURE_THREAD_IDLE_MS: Type.Integer({ minimum: 0, maximum: 86_400_000, default: 300_000 }),
  /**
   * Nice value of the feature threads (Linux): 19, the lowest priority, lets the event loop
   * answer every other request first while features run; 0 runs them at the process's own.
   */
  FEATURE_THREAD_NICE: Type.Integer({ minimum: 0, maximum: 19, default: 19 }),
  /** Feature calls that may wait for a thread; past that, 503 OVERLOADED. */
  FEATURE_QUEUE_MAX: Type.Integer({ minimum: 0, maximum: 10_000, default: 64 }),
  /** Time budget of one feature call (queue wait included); past it, 503 FEATURE_TIMEOUT. */
  FEATURE_TIMEOUT_MS: Type.Integer({ minimum: 1, maximum: 600_000, default: 5_000 }),
  /**
   * Seconds between housekeeping runs on each instance (rolling past days' usage from Redis into
   * Postgres, logging key expiries); 0 turns the timer off.
   */
  HOUSEKEEPING_INTERVAL_SECONDS: Type.Integer({ minimum: 0, maximum: 3600, default: 300 }),
  /** Apply migrations before listening. */
  MIGRATE_ON_START: Type.Boolean({ default: true }),
})

export type DataApiConfig = Static<typeof DataApiConfigSchema>

export function loadDataApiConfig(
  env: Record<string, string | undefined> = process.env,
): DataApiConfig {
  return loadConfig(DataApiConfigSchema, env)
}

/** COOKIE_SECURE as the sessions plugin reads it (the boolean spellings mapped). */
export function cookieSecureMode(value: DataApiConfig['COOKIE_SECURE']): CookieSecureMode {
  if (value === 'true') return 'always'
  if (value === 'false') return 'never'
  return value
}
