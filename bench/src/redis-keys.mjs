// Removes the Redis keys a run created (everything under its random prefix).
import { Redis } from 'ioredis'
import { infra } from './config.mjs'

export async function deleteRunKeys(prefix = infra.redisPrefix) {
  const redis = new Redis(infra.redis, { lazyConnect: true, maxRetriesPerRequest: 1 })
  await redis.connect()
  let deleted = 0
  try {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
      cursor = next
      if (keys.length > 0) deleted += await redis.del(...keys)
    } while (cursor !== '0')
  } finally {
    redis.disconnect()
  }
  return deleted
}
