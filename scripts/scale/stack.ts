import { Compose } from '../lib/compose.js'

// The scale stack as docker-compose.scale.yml defines it, and the settings the proof runs it with.

const port = (name: string, fallback: number) => Number(process.env[name] || fallback)

export const QUOTES_URL = `http://127.0.0.1:${port('QUOTES_PORT', 3000)}`
export const DATA_API_URL = `http://127.0.0.1:${port('DATA_API_PORT', 3001)}`
export const STATS_URL = `http://127.0.0.1:${port('HAPROXY_STATS_PORT', 8404)}`

/** The service replicas, each with its server name in HAProxy (`backend/server`). */
export const REPLICAS = [
  { service: 'quotes-1', server: 'quotes/quotes-1' },
  { service: 'quotes-2', server: 'quotes/quotes-2' },
  { service: 'data-api-1', server: 'data-api/data-api-1' },
  { service: 'data-api-2', server: 'data-api/data-api-2' },
] as const

export const REDIS_NODES = ['redis-1', 'redis-2', 'redis-3', 'redis-4', 'redis-5', 'redis-6']
export const ONE_SHOT = ['redis-cluster-init']

/** The fixed address of each Redis node on the stack's network (docker-compose.scale.yml). */
export function redisServiceAt(address: string): string | undefined {
  const match = /^172\.30\.57\.1([1-6])$/.exec(address)
  return match ? `redis-${match[1]}` : undefined
}

/**
 * Settings for the proof, through compose's variable substitution. Every request comes from this
 * one machine, so the per-address limits (quotes' 1,000 a minute, sign-ups' 20 per 15 minutes)
 * are raised as for any test stack; nothing else differs from `up` without them.
 */
export function scaleCompose(): Compose {
  return new Compose('docker-compose.scale.yml', {
    RATE_LIMIT_MAX: '1000000',
    AUTH_RATE_LIMIT_PER_ADDRESS: '1000',
  })
}
