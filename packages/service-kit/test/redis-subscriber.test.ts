import { Cluster, Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { createClusterClient, parseClusterNodes } from '../src/redis/client.js'
import { subscribe } from '../src/redis/subscriber.js'
import { startPrivateRedis, startRedisCluster, waitFor } from '../src/testing/index.js'

// Subscriptions that say when they listen, on a Redis and a Redis Cluster of the test's own.

const cleanups: (() => Promise<unknown>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

function recorder() {
  const events: string[] = []
  return {
    events,
    handlers: {
      message: (message: string) => events.push(`message ${message}`),
      listening: () => events.push('listening'),
      deaf: () => events.push('deaf'),
    },
  }
}

describe('subscribe on one Redis server', () => {
  it('listens, goes deaf when Redis stops, and listens again when it is back', async () => {
    const redis = await startPrivateRedis()
    cleanups.push(() => redis.close())
    const client = new Redis(redis.url, { lazyConnect: true, retryStrategy: () => 50 })
    client.on('error', () => {})
    cleanups.push(async () => client.disconnect())
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    cleanups.push(() => subscription.stop())
    await waitFor('listening', async () => subscription.listening)
    const publisher = new Redis(redis.url)
    publisher.on('error', () => {})
    cleanups.push(async () => publisher.disconnect())
    await publisher.publish('chan', 'one')
    await waitFor('the message', async () => events.includes('message one'))

    await redis.stop()
    await waitFor('deaf', async () => !subscription.listening)
    await redis.start()
    await waitFor('listening again', async () => subscription.listening, 10_000)
    await waitFor('the publisher to reconnect', async () => publisher.status === 'ready', 10_000)
    await publisher.publish('chan', 'two')
    await waitFor('the second message', async () => events.includes('message two'))
    expect(events).toEqual(['listening', 'message one', 'deaf', 'listening', 'message two'])
  })

  it('starts deaf when Redis is down and listens once it is up', async () => {
    const redis = await startPrivateRedis({ running: false })
    cleanups.push(() => redis.close())
    const client = new Redis(redis.url, { lazyConnect: true, retryStrategy: () => 50 })
    client.on('error', () => {})
    const { handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    cleanups.push(() => subscription.stop())
    expect(subscription.listening).toBe(false)
    await redis.start()
    await waitFor('listening', async () => subscription.listening, 10_000)
  })
})

/** How many connections of the server at `port` listen to `channel`. */
async function listeners(port: number, channel = 'chan') {
  const admin = new Redis({ port, host: '127.0.0.1' })
  try {
    const [, count] = (await admin.call('PUBSUB', 'NUMSUB', channel)) as [string, number]
    return Number(count)
  } finally {
    admin.disconnect()
  }
}

describe('stopping a subscription', () => {
  it('on one server: stops listening for good and closes its connection', async () => {
    const redis = await startPrivateRedis()
    cleanups.push(() => redis.close())
    const client = new Redis(redis.url, { lazyConnect: true })
    client.on('error', () => {})
    cleanups.push(async () => client.disconnect())
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    await waitFor('listening', async () => subscription.listening)
    expect(await listeners(redis.port)).toBe(1)
    await subscription.stop()
    expect(subscription.listening).toBe(false)
    await waitFor('the connection to close', async () => (await listeners(redis.port)) === 0)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await listeners(redis.port)).toBe(0)
    expect(events).toEqual(['listening'])
  })
})

describe('subscribe on a Redis Cluster', () => {
  it('hears what is published on any node, and moves to another node when its node dies', async () => {
    const cluster = await startRedisCluster({ masters: 3 })
    cleanups.push(() => cluster.close())
    const client = createClusterClient(parseClusterNodes(cluster.seeds), {
      url: 'redis://localhost',
    })
    client.on('error', () => {})
    await client.connect()
    cleanups.push(async () => client.disconnect())
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    cleanups.push(() => subscription.stop())
    await waitFor('listening', async () => subscription.listening)
    for (const [i, node] of cluster.nodes.entries()) {
      const publisher = new Redis({ port: node.port, host: '127.0.0.1' })
      await publisher.publish('chan', `from node ${i}`)
      publisher.disconnect()
    }
    await waitFor('three messages', async () => events.length === 4)

    // Kill the node the subscription uses: it says so, then listens on another node.
    const clients = await Promise.all(
      cluster.nodes.map(async (node) => {
        const admin = new Redis({ port: node.port, host: '127.0.0.1' })
        const list = String(await admin.client('LIST'))
        admin.disconnect()
        return { node, subscribed: /cmd=subscribe/.test(list) || /sub=1/.test(list) }
      }),
    )
    const used = clients.find((c) => c.subscribed)?.node
    expect(used).toBeDefined()
    await cluster.stopNode(used as (typeof cluster.nodes)[number])
    await waitFor('deaf', async () => !subscription.listening)
    await waitFor('listening on another node', async () => subscription.listening, 15_000)
    const other = cluster.nodes.find((n) => n !== used) as (typeof cluster.nodes)[number]
    const publisher = new Redis({ port: other.port, host: '127.0.0.1' })
    await publisher.publish('chan', 'after the failure')
    publisher.disconnect()
    await waitFor('the message after the failure', async () =>
      events.includes('message after the failure'),
    )
    expect(events.slice(0, 4)).toEqual([
      'listening',
      'message from node 0',
      'message from node 1',
      'message from node 2',
    ])
    expect(events.slice(4)).toEqual(['deaf', 'listening', 'message after the failure'])
    expect(client).toBeInstanceOf(Cluster)
  })

  it('stops for good on a cluster too: no connection left, none made again', async () => {
    const cluster = await startRedisCluster({ masters: 3 })
    cleanups.push(() => cluster.close())
    const client = createClusterClient(parseClusterNodes(cluster.seeds), {
      url: 'redis://localhost',
    })
    client.on('error', () => {})
    cleanups.push(async () => client.disconnect())
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    await waitFor('listening', async () => subscription.listening)
    const counts = async () => Promise.all(cluster.nodes.map((node) => listeners(node.port)))
    expect((await counts()).reduce((a, b) => a + b, 0)).toBe(1)
    await subscription.stop()
    expect(subscription.listening).toBe(false)
    await waitFor('the connection to close', async () => (await counts()).every((n) => n === 0))
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(await counts()).toEqual([0, 0, 0])
    expect(events).toEqual(['listening'])
  })
})
