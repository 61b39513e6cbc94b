import type { Cluster } from 'ioredis'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createClusterClient,
  createRedisClient,
  isCluster,
  isClusterNode,
  parseClusterNodes,
  type RedisClient,
} from '../src/redis/client.js'
import { redisProbe } from '../src/redis/probe.js'
import {
  addRedisUser,
  startRedisCluster,
  type TestRedisCluster,
  waitFor,
} from '../src/testing/index.js'

// The cluster client and the readiness probe against a Redis Cluster of the test's own
// (3 masters, no replicas): keys routed to their slots, and a probe that fails when a master
// serving slots does not answer or the cluster does not serve every slot.

let cluster: TestRedisCluster
const clients: RedisClient[] = []
beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 })
}, 120_000)
afterAll(async () => {
  for (const client of clients) client.disconnect()
  await cluster?.close()
})

function clusterClient(keyPrefix?: string) {
  const client = createRedisClient({
    url: 'redis://localhost',
    clusterNodes: cluster.seeds,
    ...(keyPrefix ? { keyPrefix } : {}),
  }) as Cluster
  client.on('error', () => {})
  clients.push(client)
  return client
}

async function node(port: number, auth: { username?: string; password?: string } = {}) {
  const client = new Redis(port, '127.0.0.1', { lazyConnect: true, ...auth })
  client.on('error', () => {})
  clients.push(client)
  await client.connect()
  return client
}

describe('the cluster client', () => {
  it('is made for REDIS_CLUSTER_NODES, unconnected, and routes prefixed keys to their slots', async () => {
    const client = clusterClient('kit-test:')
    expect(isCluster(client)).toBe(true)
    expect(client.status).toBe('wait')
    await client.connect()
    const keys = ['a', 'b', 'c', 'd', 'e', 'f']
    for (const key of keys) await client.set(key, `value of ${key}`)
    for (const key of keys) {
      const owner = await cluster.masterOf(`kit-test:${key}`)
      expect(await (await node(owner.port)).get(`kit-test:${key}`)).toBe(`value of ${key}`)
    }
  })

  it('uses no prefix when given none', async () => {
    const client = clusterClient()
    await client.connect()
    await client.set('plain', '1')
    const owner = await cluster.masterOf('plain')
    expect(await (await node(owner.port)).get('plain')).toBe('1')
  })

  it('follows failovers and fails fast, with the URL’s credentials and TLS for every node', () => {
    const client = createClusterClient(parseClusterNodes('127.0.0.1:1'), {
      url: 'rediss://user%40x:s%3Acret@localhost',
      keyPrefix: 'p:',
      commandTimeout: 300,
    })
    const retry = client.options.clusterRetryStrategy as (times: number) => number
    expect([1, 3, 20, 50].map((times) => retry(times))).toEqual([100, 300, 2_000, 2_000])
    // Fails at once rather than queueing, like the single-server client.
    expect(client.options).toMatchObject({
      keyPrefix: 'p:',
      lazyConnect: true,
      enableOfflineQueue: false,
      enableAutoPipelining: false,
    })
    // Reads and writes on masters; the slot map is refreshed often enough to follow a failover.
    expect(client.options).toMatchObject({ scaleReads: 'master', slotsRefreshInterval: 2_000 })
    expect(client.options).toMatchObject({ slotsRefreshTimeout: 1_000, retryDelayOnFailover: 100 })
    expect(client.options).toMatchObject({
      retryDelayOnClusterDown: 100,
      retryDelayOnTryAgain: 100,
    })
    const perNode = client.options.redisOptions ?? {}
    expect(perNode).toMatchObject({
      username: 'user@x',
      password: 's:cret',
      tls: {},
      commandTimeout: 300,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
    })
    // The cluster reconnects its nodes and owns the offline queue.
    expect(perNode).not.toHaveProperty('retryStrategy')
    expect(perNode).not.toHaveProperty('enableOfflineQueue')
    const plain = createClusterClient([], { url: 'redis://localhost' }).options.redisOptions
    expect(plain).not.toHaveProperty('username')
    expect(plain).not.toHaveProperty('password')
    expect(plain).not.toHaveProperty('tls')
    expect(createClusterClient([], { url: 'redis://localhost' }).options.keyPrefix).toBe('')
  })

  it('recognises a cluster node', async () => {
    const [first] = cluster.nodes
    expect(await isClusterNode(await node(first?.port as number))).toBe(true)
  })

  it('recognises a cluster node for an ACL user denied INFO', async () => {
    const port = cluster.nodes[0]?.port as number
    await addRedisUser(port, { name: 'no-info', password: 'pw', rules: ['+@all', '-@dangerous'] })
    const user = await node(port, { username: 'no-info', password: 'pw' })
    await expect(user.info('cluster')).rejects.toThrow(/^NOPERM/)
    expect(await isClusterNode(user)).toBe(true)
  })
})

/**
 * Runs `probe` in the very turn `client` emits `event` ('-node', '+node') for the node on `port`
 * (the next slot refresh may undo it), and resolves with what it says: its error or 'passed'.
 */
function probeAt(
  client: Cluster,
  event: '-node' | '+node',
  port: number,
  probe: () => Promise<void>,
) {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off(event, seen)
      reject(new Error(`no ${event} event for port ${port} within 15 s`))
    }, 15_000)
    function seen(node: Redis) {
      if (node.options.port !== port) return
      client.off(event, seen)
      clearTimeout(timer)
      resolve(
        probe().then(
          () => 'passed',
          (error: Error) => error.message,
        ),
      )
    }
    client.on(event, seen)
  })
}

describe('redisProbe on a cluster', () => {
  it('fails while the client is not connected', async () => {
    await expect(redisProbe(clusterClient())()).rejects.toThrow('the cluster client is wait')
  })

  it('passes when every master answers and every slot is served', async () => {
    const client = clusterClient()
    await client.connect()
    await expect(redisProbe(client)()).resolves.toBeUndefined()
  })

  it('fails when a master that serves slots is lost, and when it does not answer a ping', async () => {
    const client = clusterClient()
    await client.connect()
    const probe = redisProbe(client)
    await probe()
    const firstKnown = client.nodes('master')[0]?.options.port
    const victim = cluster.nodes.find((n) => n.port !== firstKnown)
    if (!victim) throw new Error('no other master')
    // The connection to the victim ends: the client drops it from its pool...
    const lost = probeAt(client, '-node', victim.port, probe)
    await cluster.stopNode(victim)
    try {
      expect(await lost).toBe(`masters not answering: ${victim.address}`)
      // ... and puts it back at its next refresh of the slot map, where a ping fails.
      const back = probeAt(client, '+node', victim.port, probe)
      expect(await back).toBe(`masters not answering: ${victim.address}`)
    } finally {
      await cluster.startNode(victim)
      // Back before the next test: the cluster may have marked the node failed meanwhile, and
      // serves its slots again once it sees the node up.
      await waitFor('the cluster to serve every slot again', () => probe().then(() => true), 30_000)
    }
  }, 90_000)

  it('fails when the cluster does not serve every slot', async () => {
    const client = clusterClient()
    await client.connect()
    const probe = redisProbe(client)
    await probe()
    const first = client.nodes('master')[0] as Redis
    const ranges = (await first.cluster('SLOTS')) as unknown as [number, number, [string, number]][]
    const own = ranges.find(([, , owner]) => owner[1] === first.options.port)
    if (!own) throw new Error('the first master serves no slot')
    // The first master forgets one of its slots: in its view, the cluster no longer covers it.
    await first.call('CLUSTER', 'DELSLOTS', String(own[0]))
    try {
      await expect(probe()).rejects.toThrow('the cluster serves 16383 of 16384 slots')
    } finally {
      await first.call('CLUSTER', 'ADDSLOTS', String(own[0]))
    }
  })
})
