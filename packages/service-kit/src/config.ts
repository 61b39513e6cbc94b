import envSchema from 'env-schema'
import { type Static, type TObject, type TProperties, Type } from 'typebox'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

export interface ServiceDefaults {
  port: number
  database: string
}

/**
 * The variables every service reads, with the service's own defaults. Apps spread these into
 * their schema and derive their config type with Static<>, so the type cannot drift from what
 * is validated at start-up.
 */
export function baseConfigProperties(defaults: ServiceDefaults) {
  return {
    HOST: Type.String({ default: '0.0.0.0', minLength: 1 }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: defaults.port }),
    DATABASE_URL: Type.String({
      pattern: '^postgres(ql)?://',
      default: `postgres://localhost:5432/${defaults.database}`,
    }),
    /**
     * A connection that bypasses the pooler (PgBouncer) for migrations, the seed and creating the
     * database; the pool keeps using DATABASE_URL. Unset: everything uses DATABASE_URL.
     */
    DATABASE_DIRECT_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
    REDIS_URL: Type.String({ pattern: '^rediss?://', default: 'redis://127.0.0.1:6379' }),
    /**
     * Seed nodes of a Redis Cluster, `host:port[,host:port...]`: switches to cluster mode
     * (REDIS_URL then only gives credentials and TLS). Empty: one Redis server at REDIS_URL.
     */
    REDIS_CLUSTER_NODES: Type.String({
      default: '',
      maxLength: 2000,
      pattern:
        '^$|^\\s*(\\[[^\\]]+\\]|[^:,\\s]+):[0-9]{1,5}\\s*(,\\s*(\\[[^\\]]+\\]|[^:,\\s]+):[0-9]{1,5}\\s*)*$',
    }),
    /**
     * Prepended to every Redis key and channel, so several deployments (or test runs) can share a
     * server. No braces: they would change the hash slot of keys on a cluster.
     */
    REDIS_KEY_PREFIX: Type.String({ default: '', maxLength: 64, pattern: '^[^{}]*$' }),
    LOG_LEVEL: Type.Enum([...LOG_LEVELS], { default: 'info' }),
    /**
     * `on`: one access-log line per request at `info`. `off`: per-request lines only at `debug`
     * (for a load balancer that already writes them); the per-minute client digest stays.
     */
    ACCESS_LOG: Type.Enum(['on', 'off'], { default: 'on' }),
    /**
     * Addresses or CIDR ranges of the reverse proxies whose X-Forwarded-For is believed, comma
     * separated (for example `10.0.0.0/8` or `loopback`). Empty: clients connect directly.
     */
    TRUST_PROXY: Type.String({ default: '', maxLength: 1000 }),
    /** How long a SIGTERM waits for in-flight requests before the process exits anyway. */
    SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, default: 10_000 }),
    /**
     * On SIGTERM, how long /ready answers 503 while requests are still served, before the server
     * stops accepting: long enough for a load balancer's health checks to take the instance out
     * of rotation (behind one, at least its check interval × failures before down). 0 without one.
     */
    SHUTDOWN_DRAIN_MS: Type.Integer({ minimum: 0, maximum: 120_000, default: 0 }),
    PG_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
    /**
     * Postgres connections kept open while idle (the rest close after 30 s idle): a new one is a
     * new Postgres process, slower on its first statements. At most PG_POOL_MAX.
     */
    PG_POOL_MIN: Type.Integer({ minimum: 0, maximum: 200, default: 1 }),
    /** Event-loop delay (ms) past which new requests get 503 and /ready says unavailable. */
    MAX_EVENT_LOOP_DELAY_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 1_000 }),
    /** How long each /ready check (Postgres, Redis, load) may take before it counts as down. */
    READY_CHECK_TIMEOUT_MS: Type.Integer({ minimum: 50, maximum: 60_000, default: 1_000 }),
    /** Share of the V8 heap limit past which new requests get 503 and /ready says unavailable. */
    MAX_HEAP_USED_RATIO: Type.Number({ exclusiveMinimum: 0, maximum: 1, default: 0.9 }),
    /**
     * `auto`: with no DATABASE_URL / REDIS_URL set and nothing answering at the defaults, run on
     * embedded stores (PGlite in EMBEDDED_DATA_DIR, an in-process Redis). `off`: never (images).
     */
    EMBEDDED_STORES: Type.Enum(['auto', 'off'], { default: 'auto' }),
    EMBEDDED_DATA_DIR: Type.String({ default: '.data', minLength: 1 }),
  } satisfies TProperties
}

export type BaseConfig = Static<TObject<ReturnType<typeof baseConfigProperties>>>

/** Where migrations, the seed and CREATE DATABASE connect: past the pooler when configured. */
export function migrationUrl(
  config: Pick<BaseConfig, 'DATABASE_URL' | 'DATABASE_DIRECT_URL'>,
): string {
  return config.DATABASE_DIRECT_URL ?? config.DATABASE_URL
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Validates `env` against `schema` (coercing strings, applying defaults) or throws a ConfigError. */
export function loadConfig<S extends TObject>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): Static<S> {
  // Empty strings mean "unset" (compose files often pass VAR= through).
  const data = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
  let config: Static<S>
  try {
    config = envSchema<Static<S>>({ schema, data, dotenv: false })
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`)
  }
  checkPoolSizes(config)
  return config
}

/** What one setting's schema cannot say: the idle connections kept fit in the pool. */
function checkPoolSizes({ PG_POOL_MIN: min, PG_POOL_MAX: max }: Partial<BaseConfig>): void {
  if (min !== undefined && max !== undefined && min > max) {
    throw new ConfigError(
      `Invalid configuration: PG_POOL_MIN (${min}) is larger than PG_POOL_MAX (${max})`,
    )
  }
}
