import type { ClusterNode } from 'ioredis'
import { beforeAll, describe, expect, it } from 'vitest'
import { createClusterClient, parseClusterNodes } from '../src/redis/client.js'
import { subscribe } from '../src/redis/subscriber.js'
import {
  type RedisClusterNode,
  type RedisClusterOptions,
  startRedisCluster,
  type TestRedisCluster,
  waitFor,
} from '../src/testing/index.js'
import { listeners, publish, recorder, useCleanups } from './support/subscriptions.js'

// Subscriptions that say when they listen, on Redis Clusters of the test's own: one connection to
// one node at a time (PUBLISH reaches every node), the next node when it ends.

const cleanup = useCleanups()

async function clusterOfTheTest(opts: RedisClusterOptions = {}) {
  const cluster = await startRedisCluster({ masters: 3, ...opts })
  cleanup(() => cluster.close())
  return cluster
}

/** A cluster client over `seeds` (not connected: the test decides), with the kit's settings. */
function clientOf(seeds: ClusterNode[], password?: string) {
  const client = createClusterClient(seeds, { url: `redis://${password ? `:${password}@` : ''}x` })
  client.on('error', () => {})
  cleanup(async () => client.disconnect())
  return client
}

/** How many connections listen to `channel` on each node (of those in `nodes`). */
const counts = (nodes: RedisClusterNode[], channel = 'chan', password?: string) =>
  Promise.all(nodes.map((node) => listeners(node.port, channel, password)))

const sum = (numbers: number[]) => numbers.reduce((a, b) => a + b, 0)

describe('subscribe on a Redis Cluster', () => {
  it('hears what is published on any node, and moves to another node the cluster knows when its node dies', async () => {
    const password = 'cluster-secret'
    const cluster = await clusterOfTheTest({ password })
    // One seed: the other nodes are known from the cluster client once it has connected.
    const [first] = cluster.nodes
    const client = clientOf(parseClusterNodes(first?.address ?? ''), password)
    await client.connect()
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    cleanup(() => subscription.stop())
    await waitFor('listening', async () => subscription.listening)
    for (const [i, node] of cluster.nodes.entries()) {
      await publish(node.port, 'chan', `from node ${i}`, password)
    }
    await waitFor('three messages', async () => events.length === 4)

    const perNode = await counts(cluster.nodes, 'chan', password)
    expect(sum(perNode)).toBe(1)
    const used = cluster.nodes[perNode.indexOf(1)] as RedisClusterNode
    await cluster.stopNode(used)
    await waitFor('deaf', async () => !subscription.listening)
    await waitFor('listening on another node', async () => subscription.listening, 15_000)
    const others = cluster.nodes.filter((n) => n !== used)
    expect(sum(await counts(others, 'chan', password))).toBe(1)
    await publish(others[0]?.port ?? 0, 'chan', 'after the failure', password)
    await waitFor('the message after the failure', async () =>
      events.includes('message after the failure'),
    )
    expect(events).toEqual([
      'listening',
      'message from node 0',
      'message from node 1',
      'message from node 2',
      'deaf',
      'listening',
      'message after the failure',
    ])
  })

  it('before the cluster client has connected, tries its seed nodes in turn: the next one when its node dies', async () => {
    const cluster = await clusterOfTheTest()
    const client = clientOf(parseClusterNodes(cluster.seeds))
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    cleanup(() => subscription.stop())
    expect(subscription.listening).toBe(false)
    await waitFor('listening', async () => subscription.listening)
    expect(await counts(cluster.nodes)).toEqual([1, 0, 0])

    const [first, second, third] = cluster.nodes as [
      RedisClusterNode,
      RedisClusterNode,
      RedisClusterNode,
    ]
    await cluster.stopNode(first)
    await waitFor('deaf', async () => !subscription.listening)
    await waitFor('listening on the next seed', async () => subscription.listening, 15_000)
    expect(await counts([second, third])).toEqual([1, 0])
    await publish(third.port, 'chan', 'from the third node')
    await waitFor('the message', async () => events.includes('message from the third node'))
    expect(events).toEqual(['listening', 'deaf', 'listening', 'message from the third node'])
  })
})

describe('on a Redis Cluster whose nodes stay up', () => {
  let cluster: TestRedisCluster
  beforeAll(async () => {
    cluster = await clusterOfTheTest()
  })

  /** Long enough for a subscriber that wrongly tried again (200 or 500 ms later) to be listening. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500))

  it('stops for good: no connection left, none made again', async () => {
    const client = clientOf(parseClusterNodes(cluster.seeds))
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    await waitFor('listening', async () => subscription.listening)
    expect(sum(await counts(cluster.nodes))).toBe(1)
    await subscription.stop()
    expect(subscription.listening).toBe(false)
    await waitFor('the connection to close', async () => sum(await counts(cluster.nodes)) === 0)
    await settle()
    expect(await counts(cluster.nodes)).toEqual([0, 0, 0])
    expect(events).toEqual(['listening'])
  })

  it('does not guess at seeds without a host and a port: it waits for the cluster client to know its nodes', async () => {
    const [first] = cluster.nodes as [RedisClusterNode]
    // ioredis reads the second seed as 127.0.0.1:6379, a Redis that is no node of this cluster.
    const client = clientOf([`127.0.0.1:${first.port}`, { host: '127.0.0.1' }])
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'seeds', handlers)
    cleanup(() => subscription.stop())
    expect(subscription.listening).toBe(false)
    await client.connect()
    await waitFor(
      'listening on a node the cluster client knows',
      async () => subscription.listening,
    )
    expect(sum(await counts(cluster.nodes, 'seeds'))).toBe(1)
    await publish(first.port, 'seeds', 'hello')
    await waitFor('the message', async () => events.includes('message hello'))
  })

  it('stopped while it has no node to try: connects nowhere, even once the cluster client knows its nodes', async () => {
    const [first] = cluster.nodes as [RedisClusterNode]
    const client = clientOf([`127.0.0.1:${first.port}`])
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'stopped', handlers)
    await subscription.stop()
    await client.connect()
    await settle()
    expect(await counts(cluster.nodes, 'stopped')).toEqual([0, 0, 0])
    expect(events).toEqual([])
  })
})
