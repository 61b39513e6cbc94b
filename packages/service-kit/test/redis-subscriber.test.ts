import { Redis } from 'ioredis'
import { describe, expect, it, vi } from 'vitest'
import { subscribe } from '../src/redis/subscriber.js'
import { startPrivateRedis, waitFor } from '../src/testing/index.js'
import { connectionsTo, replyHoldingProxy } from './support/connections.js'
import { listeners, publish, recorder, useCleanups } from './support/subscriptions.js'

// Subscriptions that say when they listen, on a Redis server of the test's own (the cluster's are
// in redis-subscriber.cluster.test.ts).

const cleanup = useCleanups()

/** A private Redis and a client of it that is never connected itself (the subscriber duplicates it). */
async function redisAndClient(opts: { running?: boolean; username?: string } = {}) {
  const redis = await startPrivateRedis({ running: opts.running })
  cleanup(() => redis.close())
  const client = new Redis(redis.url, {
    lazyConnect: true,
    retryStrategy: () => 50,
    ...(opts.username ? { username: opts.username, password: 'secret' } : {}),
  })
  client.on('error', () => {})
  cleanup(async () => client.disconnect())
  return { redis, client }
}

describe('subscribe on one Redis server', () => {
  it('listens, goes deaf when Redis stops, and listens again when it is back', async () => {
    const { redis, client } = await redisAndClient()
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    cleanup(() => subscription.stop())
    await waitFor('listening', async () => subscription.listening)
    await publish(redis.port, 'chan', 'one')
    await waitFor('the message', async () => events.includes('message one'))

    await redis.stop()
    await waitFor('deaf', async () => !subscription.listening)
    await redis.start()
    await waitFor('listening again', async () => subscription.listening, 10_000)
    await publish(redis.port, 'chan', 'two')
    await waitFor('the second message', async () => events.includes('message two'))
    expect(events).toEqual(['listening', 'message one', 'deaf', 'listening', 'message two'])
  })

  it('starts deaf when Redis is down, quietly, and listens once it is up', async () => {
    const { redis, client } = await redisAndClient({ running: false })
    const connections = connectionsTo(redis.port)
    const consoleErrors = vi.spyOn(console, 'error')
    try {
      const subscription = subscribe(client, 'chan', recorder().handlers)
      cleanup(() => subscription.stop())
      expect(subscription.listening).toBe(false)
      await waitFor('two refused connections', async () => connections.refused() >= 2)
      await redis.start()
      await waitFor('listening', async () => subscription.listening, 10_000)
      // The refused connections were the subscriber's to handle, not "unhandled error events".
      expect(consoleErrors.mock.calls.filter((call) => /ioredis/.test(String(call[0])))).toEqual([])
    } finally {
      consoleErrors.mockRestore()
      connections.stop()
    }
  })

  it('keeps trying while its user may not subscribe to the channel, and listens once allowed', async () => {
    const { redis, client } = await redisAndClient({ username: 'listener' })
    const admin = new Redis(redis.url)
    cleanup(async () => admin.disconnect())
    // Redis 7 users get no channel until granted one (acl-pubsub-default resetchannels).
    await admin.call('ACL', 'SETUSER', 'listener', 'on', '>secret', '~*', '+@all')
    // A refused SUBSCRIBE nobody catches would crash a service (ioredis resubscribing by itself).
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    cleanup(async () => process.off('unhandledRejection', onUnhandled))
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    cleanup(() => subscription.stop())
    const refusals = async () => {
      const log = (await admin.call('ACL', 'LOG')) as unknown[][]
      const entries = log.map((entry) => Object.fromEntries(chunk(entry)))
      const refused = entries.find((e) => e.reason === 'channel' && e.object === 'chan')
      return Number(refused?.count ?? 0)
    }
    await waitFor('SUBSCRIBE refused on two connections', async () => (await refusals()) >= 2)
    expect(subscription.listening).toBe(false)

    await admin.call('ACL', 'SETUSER', 'listener', '&chan')
    await waitFor('listening once allowed', async () => subscription.listening, 10_000)
    await publish(redis.port, 'chan', 'one')
    await waitFor('the message', async () => events.includes('message one'))

    // Revoking the channel makes Redis drop the subscribed connection: deaf until allowed again.
    await admin.call('ACL', 'SETUSER', 'listener', 'resetchannels')
    await waitFor('deaf', async () => !subscription.listening)
    const refusedBefore = await refusals()
    await waitFor('refused again', async () => (await refusals()) > refusedBefore)
    await admin.call('ACL', 'SETUSER', 'listener', '&chan')
    await waitFor('listening again', async () => subscription.listening, 10_000)
    expect(events).toEqual(['listening', 'message one', 'deaf', 'listening'])
    expect(unhandled).toEqual([])
  })
})

/** [k1, v1, k2, v2, …] → [[k1, v1], [k2, v2], …] (an ACL LOG entry). */
function chunk(flat: unknown[]): [unknown, unknown][] {
  return Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]])
}

describe('stopping a subscription', () => {
  it('on one server: stops listening for good and closes its connection', async () => {
    const { redis, client } = await redisAndClient()
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    await waitFor('listening', async () => subscription.listening)
    expect(await listeners(redis.port, 'chan')).toBe(1)
    await subscription.stop()
    expect(subscription.listening).toBe(false)
    await waitFor(
      'the connection to close',
      async () => (await listeners(redis.port, 'chan')) === 0,
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await listeners(redis.port, 'chan')).toBe(0)
    expect(events).toEqual(['listening'])
  })

  it('stopped while its SUBSCRIBE is on its way: the late reply does not make it listen', async () => {
    const { redis } = await redisAndClient()
    const proxy = await replyHoldingProxy(redis.port, 'subscribe')
    cleanup(() => proxy.close())
    const connections = connectionsTo(proxy.port)
    cleanup(async () => connections.stop())
    const client = new Redis(proxy.port, '127.0.0.1', { lazyConnect: true })
    const { events, handlers } = recorder()
    const subscription = subscribe(client, 'chan', handlers)
    await waitFor('SUBSCRIBE sent, its reply held', async () => proxy.holding())
    await subscription.stop()
    proxy.release()
    const [socket] = connections.connected()
    // Its socket closes after every byte the server sent was read (the reply included).
    await waitFor('the connection to close', async () => socket?.closed === true)
    expect(subscription.listening).toBe(false)
    expect(events).toEqual([])
  })
})
