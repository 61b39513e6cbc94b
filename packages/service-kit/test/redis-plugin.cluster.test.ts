import Fastify, { type FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import redisPlugin, { type RedisPluginOptions } from '../src/plugins/redis.js'
import { isCluster } from '../src/redis/client.js'
import {
  freePort,
  type RedisClusterNode,
  startRedisCluster,
  TEST_REDIS_URL,
  type TestRedisCluster,
  waitFor,
} from '../src/testing/index.js'
import { logLines } from './support/log-lines.js'

// The Redis plugin's choice of client: a cluster client for REDIS_CLUSTER_NODES, or for a
// REDIS_URL that turns out to name a cluster node (with a warning), and a refusal to go on when
// that is only found out after a start without Redis.

let cluster: TestRedisCluster
const apps: FastifyInstance[] = []
beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 })
}, 120_000)
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})
afterAll(async () => {
  await cluster?.close()
})

async function appWith(opts: RedisPluginOptions) {
  const log = logLines()
  const app = Fastify({ logger: { level: 'info', stream: log.stream } })
  apps.push(app)
  await app.register(redisPlugin, opts)
  await app.ready()
  const logged = (text: string) => log.lines().filter((line) => line.msg.includes(text))
  return { app, logged }
}

/** Starts an app while `node` is down, and starts the node again under it. */
async function appStartedWhileDown(node: RedisClusterNode, opts: RedisPluginOptions) {
  await cluster.stopNode(node)
  const started = await appWith(opts)
  expect(started.app.redisState.status).toBe('down')
  expect(started.logged('starting without Redis')).toHaveLength(1)
  await cluster.startNode(node)
  return started
}

/** How many clients the node has, besides the connection that asks. */
async function otherClients(node: RedisClusterNode): Promise<number> {
  const admin = new Redis({ port: node.port, host: '127.0.0.1', lazyConnect: true })
  try {
    await admin.connect()
    const list = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'normal'))
    return list.trim().split('\n').length - 1
  } finally {
    admin.disconnect()
  }
}

/** Keys on every master: a client that cannot route them gets MOVED errors. */
async function expectRoutes(app: FastifyInstance) {
  for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) await app.redis.set(key, key)
  expect(await app.redis.get('f')).toBe('f')
}

describe('the Redis plugin and Redis Cluster', () => {
  it('uses a cluster client for REDIS_CLUSTER_NODES', async () => {
    const { app, logged } = await appWith({ url: 'redis://localhost', clusterNodes: cluster.seeds })
    expect(isCluster(app.redis)).toBe(true)
    await expectRoutes(app)
    await app.redisReady()
    expect(logged('Cluster node')).toEqual([])
  })

  it('uses a REDIS_URL that names a cluster node as the seed of a cluster client, with a warning', async () => {
    const [node] = cluster.nodes
    const { app, logged } = await appWith({ url: `redis://${node?.address}` })
    expect(isCluster(app.redis)).toBe(true)
    await expectRoutes(app)
    await app.redisReady()
    expect(logged('REDIS_URL points at a Redis Cluster node')).toMatchObject([
      {
        level: 40,
        redis: `redis://${node?.address}`,
        msg:
          'REDIS_URL points at a Redis Cluster node: using it as the seed of a cluster client. ' +
          'Set REDIS_CLUSTER_NODES to list several nodes, so a start does not depend on this one.',
      },
    ])
  })

  it('lets the seed client go: once closed, nothing of it is left connected to the node', async () => {
    const node = cluster.nodes[1]
    if (!node) throw new Error('no second node')
    const { app } = await appWith({ url: `redis://${node.address}` })
    await expectRoutes(app)
    apps.splice(apps.indexOf(app), 1)
    await app.close()
    await waitFor(
      'the node to lose every client',
      async () => (await otherClients(node)) === 0,
      5_000,
    )
  })

  it('fails readiness for good when a REDIS_URL down at start turns out to be a cluster node', async () => {
    const node = cluster.nodes[2]
    if (!node) throw new Error('no third node')
    const { app, logged } = await appStartedWhileDown(node, { url: `redis://${node.address}` })
    await waitFor(
      'the misconfiguration to be seen',
      async () => logged('misconfigured').length > 0,
      15_000,
    )
    const says =
      `REDIS_URL (redis://${node.address}) points at a node of a Redis Cluster. Set ` +
      'REDIS_CLUSTER_NODES=host:port[,host:port...] (the nodes of the cluster) so keys are ' +
      'routed to their slots, and restart.'
    expect(logged('misconfigured')).toMatchObject([
      { level: 60, msg: 'redis is misconfigured', err: { message: says } },
    ])
    const refusal = app.redisReady()
    await expect(refusal).rejects.toThrow(says)
    await expect(refusal).rejects.toMatchObject({ critical: true })
    expect(app.redisState.status).toBe('down')
    // The client that cannot route keys is let go: it no longer reconnects.
    await waitFor('the client to end', async () => app.redis.status === 'end', 5_000)
  }, 60_000)

  it('connects REDIS_CLUSTER_NODES down at start once they answer, and takes them for a cluster', async () => {
    const node = cluster.nodes[1]
    if (!node) throw new Error('no second node')
    const { app, logged } = await appStartedWhileDown(node, {
      url: 'redis://localhost',
      clusterNodes: node.address,
    })
    expect(isCluster(app.redis)).toBe(true)
    await waitFor('the client to connect', async () => app.redisState.status === 'up', 15_000)
    await expectRoutes(app)
    await app.redisReady()
    expect(logged('misconfigured')).toEqual([])
  }, 60_000)

  it('keeps a plain client for a plain server', async () => {
    const { app, logged } = await appWith({ url: TEST_REDIS_URL })
    expect(isCluster(app.redis)).toBe(false)
    await app.redisReady()
    expect(logged('Cluster node')).toEqual([])
  })

  it('never connects when told not to (describing the API), and closes all the same', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`
    const { app } = await appWith({ url, connect: false })
    expect(app.redis.status).toBe('wait')
    apps.splice(apps.indexOf(app), 1)
    await app.close()
    expect(app.redis.status).toBe('end')
    expect(app.hasPlugin('redis')).toBe(true)
  })
})
