// Removes the Redis keys a run created (everything under its random prefix).
import { deleteRedisKeys } from '@repo/service-kit/testing'
import { infra } from './config.mjs'

export function deleteRunKeys(prefix = infra.redisPrefix) {
  return deleteRedisKeys(infra.redis, prefix)
}
