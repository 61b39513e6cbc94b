import type { Writable } from 'node:stream'
import type { Cluster, Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRedisClient, type RedisClient } from '../src/redis/client.js'
import { turnWrites } from '../src/redis/turn-writes.js'
import {
  type PrivateRedis,
  startPrivateRedis,
  startRedisCluster,
  type TestRedisCluster,
} from '../src/testing/index.js'

// turnWrites against a Redis server and a Redis Cluster of the test's own: the commands of one
// turn of the event loop leave in one write per connection, and each is still answered alone.

interface Writes {
  /** Chunks written one by one (a system call each). */
  write: number
  /** Batches of chunks written at once (one system call each). */
  writev: number
  chunks: number
}

/** Counts what `stream` hands the system: Node calls _write for one chunk, _writev for several. */
function countWrites(stream: Writable): Writes {
  const writes = { write: 0, writev: 0, chunks: 0 }
  const target = stream as Writable & {
    _writev: NonNullable<Writable['_writev']>
  }
  const write = target._write.bind(target)
  const writev = target._writev.bind(target)
  target._write = (chunk, encoding, callback) => {
    writes.write++
    writes.chunks++
    write(chunk, encoding, callback)
  }
  target._writev = (chunks, callback) => {
    writes.writev++
    writes.chunks += chunks.length
    writev(chunks, callback)
  }
  return writes
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

const clients: RedisClient[] = []
function client(opts: Parameters<typeof createRedisClient>[0]) {
  const made = createRedisClient(opts)
  made.on('error', () => {})
  clients.push(made)
  return made
}
afterAll(() => {
  for (const made of clients) made.disconnect()
})

describe('turnWrites on a Redis server', () => {
  let redis: PrivateRedis
  beforeAll(async () => {
    redis = await startPrivateRedis()
  })
  afterAll(async () => {
    await redis?.close()
  })

  async function connected(prefix: string) {
    const made = client({ url: redis.url, keyPrefix: prefix }) as Redis
    await made.connect()
    return made
  }

  it('sends the commands of one turn in one write, each answered', async () => {
    const redisClient = await connected('one-write:')
    const shareTurn = turnWrites(redisClient)
    const writes = countWrites(redisClient.stream)
    shareTurn()
    const replies = Array.from({ length: 10 }, (_, i) => {
      shareTurn() // again within the turn: still one write
      return redisClient.incrby(`n${i}`, i)
    })
    expect(await Promise.all(replies)).toEqual(Array.from({ length: 10 }, (_, i) => i))
    expect(writes).toEqual({ write: 0, writev: 1, chunks: 10 })
  })

  it('writes each command of a turn alone without it', async () => {
    const redisClient = await connected('alone:')
    const writes = countWrites(redisClient.stream)
    await Promise.all(Array.from({ length: 10 }, (_, i) => redisClient.incr(`n${i}`)))
    expect(writes.chunks).toBe(10)
    expect(writes.write + writes.writev).toBeGreaterThan(1)
  })

  it('keeps each reply and error its own', async () => {
    const redisClient = await connected('errors:')
    await redisClient.set('text', 'not a number')
    const shareTurn = turnWrites(redisClient)
    shareTurn()
    const results = await Promise.allSettled([
      redisClient.incr('count'),
      redisClient.incr('text'),
      redisClient.get('text'),
    ])
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((results[1] as PromiseRejectedResult).reason.message).toMatch(/not an integer/)
    expect((results[2] as PromiseFulfilledResult<string>).value).toBe('not a number')
  })

  it('lets the connection go at the end of the turn: later commands leave at once', async () => {
    const redisClient = await connected('later:')
    const shareTurn = turnWrites(redisClient)
    shareTurn()
    expect(redisClient.stream.writableCorked).toBe(1)
    await nextTurn()
    expect(redisClient.stream.writableCorked).toBe(0)
    const writes = countWrites(redisClient.stream)
    const reply = redisClient.incr('n')
    expect(writes.chunks).toBe(1) // written before the turn ends
    expect(await reply).toBe(1)
    // And a new turn corks again.
    shareTurn()
    expect(redisClient.stream.writableCorked).toBe(1)
  })

  it('does nothing for a client without a connection yet, which then works as before', async () => {
    const redisClient = client({ url: redis.url, keyPrefix: 'lazy:' }) as Redis
    const shareTurn = turnWrites(redisClient)
    expect(() => shareTurn()).not.toThrow()
    await redisClient.connect()
    expect(redisClient.stream.writableCorked).toBe(0)
    expect(await redisClient.incr('n')).toBe(1)
  })
})

describe('turnWrites on a Redis Cluster', () => {
  let cluster: TestRedisCluster
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3 })
  }, 120_000)
  afterAll(async () => {
    await cluster?.close()
  })

  it('sends the commands of one turn in one write per master, each to its slot', async () => {
    const clusterClient = client({
      url: 'redis://localhost',
      clusterNodes: cluster.seeds,
      keyPrefix: 'turn:',
    }) as Cluster
    await clusterClient.connect()
    // Every master connected (a command to each), then counted.
    const keys = Array.from({ length: 30 }, (_, i) => `k${i}`)
    await Promise.all(keys.map((key) => clusterClient.set(key, '0')))
    const masters = clusterClient.nodes('master')
    expect(masters).toHaveLength(3)
    const writes = masters.map((node) => countWrites(node.stream))
    const shareTurn = turnWrites(clusterClient)
    shareTurn()
    expect(await Promise.all(keys.map((key) => clusterClient.incr(key)))).toEqual(keys.map(() => 1))
    // Each master got its keys' commands in one write.
    for (const counted of writes) {
      expect(counted.write).toBe(0)
      expect(counted.writev).toBe(1)
    }
    expect(writes.reduce((sum, counted) => sum + counted.chunks, 0)).toBe(30)
  })
})
