import { startRedisCluster, type TestRedisCluster } from '@repo/service-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

// The per-address ceiling on a real 3-master Redis Cluster, shared by two instances.

let cluster: TestRedisCluster
let first: TestApp
let second: TestApp

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 })
  const env = { REDIS_CLUSTER_NODES: cluster.seeds, RATE_LIMIT_MAX: '50' }
  first = await createTestApp('cluster', env)
  second = await createTestApp('cluster', { ...env, REDIS_KEY_PREFIX: first.redis.prefix })
}, 60_000)
afterAll(async () => {
  await second?.close()
  await first?.close()
  await cluster?.close()
})

describe('the per-address ceiling on a Redis Cluster', () => {
  it('admits exactly the ceiling across two instances hit concurrently', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 160 }, async (_, i) => {
        const app = (i % 2 === 0 ? first : second).app
        return (await app.inject({ url: '/api/q/q1', remoteAddress: '192.0.2.10' })).statusCode
      }),
    )
    expect(statuses.filter((status) => status === 200)).toHaveLength(50)
    expect(statuses.filter((status) => status === 429)).toHaveLength(110)
  })

  it('reports the cluster ready', async () => {
    const ready = await first.app.inject({ url: '/ready' })
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { load: 'up', postgres: 'up', redis: 'up', catalog: 'up' },
    })
  })
})
