import { createRedisClient, type RedisClient } from '@repo/service-kit'
import { type PrivateRedis, startPrivateRedis, waitFor } from '@repo/service-kit/testing'

/** A Redis of the test's own and a connected client of it, for tests that stop Redis. */
export interface RedisWithClient {
  redis: PrivateRedis
  client: RedisClient
  /** Stops Redis around `during` (the client notices first), then starts it and reconnects. */
  outage<T>(during: () => Promise<T>): Promise<T>
  close(): Promise<void>
}

export async function startRedisWithClient(): Promise<RedisWithClient> {
  const redis = await startPrivateRedis()
  const client = createRedisClient({ url: redis.url, commandTimeout: 500 })
  client.on('error', () => {}) // the outages' connection errors: expected
  await client.connect()
  return {
    redis,
    client,
    async outage(during) {
      await redis.stop()
      await waitFor('the client to notice', async () => client.status !== 'ready')
      try {
        return await during()
      } finally {
        await redis.start()
        await waitFor('the client to reconnect', async () => client.status === 'ready')
      }
    },
    async close() {
      client.disconnect()
      await redis.close()
    },
  }
}
