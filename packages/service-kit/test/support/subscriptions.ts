import { Redis } from 'ioredis'
import { afterAll } from 'vitest'

/** Cleanups the file's tests register, run in reverse order after them (errors not swallowed). */
export function useCleanups(): (cleanup: () => Promise<unknown>) => void {
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })
  return (cleanup) => {
    cleanups.push(cleanup)
  }
}

/** Subscriber handlers that record what they are told, in order. */
export function recorder() {
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

/** Runs `use` on a new connection to the server at `port`, then closes it. */
async function withConnection<T>(
  port: number,
  password: string | undefined,
  use: (redis: Redis) => Promise<T>,
): Promise<T> {
  const redis = new Redis({ port, host: '127.0.0.1', password, lazyConnect: true })
  try {
    await redis.connect()
    return await use(redis)
  } finally {
    redis.disconnect()
  }
}

/** How many connections of the server at `port` listen to `channel`. */
export async function listeners(port: number, channel: string, password?: string) {
  return withConnection(port, password, async (redis) => {
    const [, count] = (await redis.call('PUBSUB', 'NUMSUB', channel)) as [string, number]
    return Number(count)
  })
}

/** Publishes `message` on `channel` through the server at `port`. */
export async function publish(port: number, channel: string, message: string, password?: string) {
  await withConnection(port, password, (redis) => redis.publish(channel, message))
}
