import { Counter } from '@repo/service-kit'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { AccountEvents } from '../lib/account-events.js'
import { Accounts } from '../lib/accounts.js'
import { ApiKeys } from '../lib/api-keys.js'
import { type Clock, systemClock } from '../lib/clock.js'
import { FeatureSlots } from '../lib/feature-slots.js'
import { invalidationChannel, KeyCache } from '../lib/key-cache.js'
import { LastUsedWriter } from '../lib/last-used.js'
import { QuotaStore } from '../lib/quota.js'
import { UnauthorizedLimiter } from '../lib/unauthorized-limiter.js'
import { UsageHistory } from '../lib/usage-history.js'
import { WindowCounter } from '../lib/window-counter.js'

declare module 'fastify' {
  interface FastifyInstance {
    accounts: Accounts
    accountEvents: AccountEvents
    usageHistory: UsageHistory
    apiKeys: ApiKeys
    keyCache: KeyCache
    quota: QuotaStore
    lastUsed: LastUsedWriter
    clock: Clock
    quotaDecisions: Counter<'decision'>
    unauthorizedLimiter: UnauthorizedLimiter
    featureSlots: FeatureSlots
  }
}

export interface ServicesOptions {
  /** Names the invalidation channel (channels are not key-prefixed by the client). */
  redisKeyPrefix: string
  maxActiveKeys: number
  keyCacheTtlMs: number
  lastUsedFlushMs: number
  quotaFailMode: 'open' | 'closed'
  /** 401s one client address may get per minute before it gets 429s. */
  unauthorizedPerAddress: number
  /** Built only to describe the API: no subscription to revocations, no timer. */
  describeOnly?: boolean
  /** Tests move time; production uses the system clock. */
  clock?: Clock
}

/** The data service's stores, built on the shared Postgres pool and Redis client. */
const services: FastifyPluginAsync<ServicesOptions> = async (fastify, opts) => {
  const quotaDecisions = new Counter({
    name: 'quota_decisions_total',
    help: 'Daily-quota decisions: allowed, refused, allowed_degraded (Redis down, fail open), unavailable (fail closed)',
    labelNames: ['decision'] as const,
    registers: [fastify.promRegistry],
  })
  // Every outcome exported from the start (at 0), so rates and alerts work before the first one.
  for (const decision of ['allowed', 'refused', 'allowed_degraded', 'unavailable']) {
    quotaDecisions.inc({ decision }, 0)
  }
  const redisDown = (error: Error) => fastify.redisState.down(error)
  const clock = opts.clock ?? systemClock
  const apiKeys = new ApiKeys(fastify.pg, opts.maxActiveKeys, clock)

  const keyCache = new KeyCache(apiKeys, fastify.redis, {
    ttlMs: opts.keyCacheTtlMs,
    channel: invalidationChannel(opts.redisKeyPrefix),
    onError: redisDown,
  })
  if (!opts.describeOnly) keyCache.start()

  const lastUsed = new LastUsedWriter(
    (times) => apiKeys.touch(times),
    opts.lastUsedFlushMs,
    (error) => {
      fastify.dependencyErrors.inc({ dependency: 'postgres' })
      fastify.log.warn({ err: error }, 'could not record key use')
    },
  )
  if (!opts.describeOnly) lastUsed.start()

  fastify.decorate('clock', clock)
  fastify.decorate('accounts', new Accounts(fastify.pg))
  fastify.decorate('apiKeys', apiKeys)
  fastify.decorate('keyCache', keyCache)
  fastify.decorate('lastUsed', lastUsed)
  fastify.decorate('quotaDecisions', quotaDecisions)
  fastify.decorate('featureSlots', new FeatureSlots())
  fastify.decorate(
    'unauthorizedLimiter',
    new UnauthorizedLimiter(
      new WindowCounter(fastify.redis, fastify.redisState, 'api-401:', 60),
      opts.unauthorizedPerAddress,
    ),
  )
  const quota = new QuotaStore(fastify.redis, {
    clock,
    failMode: opts.quotaFailMode,
    onDegraded: redisDown,
  })
  fastify.decorate('quota', quota)
  fastify.decorate('accountEvents', new AccountEvents(fastify.pg))
  fastify.decorate('usageHistory', new UsageHistory(fastify.pg, quota, clock))

  // Added after the pool and the Redis client, so these run before they close.
  fastify.addHook('onClose', async () => {
    await lastUsed.stop()
    await keyCache.stop()
  })
}

export default fp(services, {
  name: 'data-services',
  fastify: '5.x',
  dependencies: ['postgres', 'redis', 'service-metrics'],
})
