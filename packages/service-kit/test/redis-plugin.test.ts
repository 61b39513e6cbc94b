import { setTimeout as sleep } from 'node:timers/promises'
import Fastify, { type FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { afterEach, describe, expect, it } from 'vitest'
import metricsPlugin from '../src/plugins/metrics.js'
import redisPlugin from '../src/plugins/redis.js'
import responsePipeline from '../src/plugins/response-pipeline.js'
import {
  addRedisUser,
  type PrivateRedis,
  startPrivateRedis,
  waitFor,
} from '../src/testing/index.js'
import { logLines } from './support/log-lines.js'

// The Redis plugin against a Redis server of the test's own, stopped and started under it.

let app: FastifyInstance | undefined
let redis: PrivateRedis | undefined
let admin: Redis | undefined
afterEach(async () => {
  await app?.close()
  admin?.disconnect()
  await redis?.close()
  app = undefined
  redis = undefined
  admin = undefined
})

async function build(url: string) {
  const log = logLines()
  const instance = Fastify({ logger: { level: 'info', stream: log.stream } })
  await instance.register(responsePipeline)
  await instance.register(metricsPlugin)
  await instance.register(redisPlugin, { url, keyPrefix: 'plugin-test:' })
  await instance.ready()
  return { instance, lines: log.lines }
}

const about = (lines: () => { msg: string }[], text: string) =>
  lines().filter((line) => line.msg.includes(text))

/** Connections the server has accepted so far (its own counter; the test's admin connection included). */
async function connectionsReceived(server: PrivateRedis, password: string) {
  admin ??= new Redis({ port: server.port, host: '127.0.0.1', password })
  return Number(/total_connections_received:(\d+)/.exec(await admin.info('stats'))?.[1])
}

describe('the Redis plugin', () => {
  it('starts while Redis is down, degraded, and uses Redis once it answers', async () => {
    redis = await startPrivateRedis({ running: false })
    const built = await build(redis.url)
    app = built.instance
    expect(app.redisState.status).toBe('down')
    await expect(app.redisReady()).rejects.toThrow()
    await redis.start()
    await waitFor('the client to reconnect', async () => app?.redisState.status === 'up', 10_000)
    await app.redisReady()
    await app.redis.set('k', 'v')
    expect(await app.redis.get('k')).toBe('v')
    expect(about(built.lines, 'redis is unavailable')).toHaveLength(1)
    expect(about(built.lines, 'redis is available again')).toHaveLength(1)
  })

  it('starts up, not degraded, for an ACL user denied INFO (a hardened set-up)', async () => {
    redis = await startPrivateRedis()
    const rules = ['+@all', '-@dangerous']
    await addRedisUser(redis.port, { name: 'app', password: 'pw', rules })
    const built = await build(`redis://app:pw@127.0.0.1:${redis.port}`)
    app = built.instance
    expect(app.redisState.status).toBe('up')
    expect(about(built.lines, 'starting without Redis')).toEqual([])
    await app.redisReady()
  })

  it('logs one line when Redis goes down and one when it is back, not one per failure', async () => {
    redis = await startPrivateRedis()
    const built = await build(redis.url)
    app = built.instance
    expect(app.redisState.status).toBe('up')
    expect(await app.promRegistry.metrics()).toMatch(/^dependency_up\{dependency="redis"\} 1$/m)
    await redis.stop()
    for (let i = 0; i < 20; i += 1) await app.redis.get('k').catch(() => undefined)
    await expect(app.redisReady()).rejects.toThrow()
    expect(app.redisState.status).toBe('down')
    expect(await app.promRegistry.metrics()).toMatch(/^dependency_up\{dependency="redis"\} 0$/m)
    await redis.start()
    await waitFor('the client to reconnect', async () => app?.redisState.status === 'up', 10_000)
    expect(about(built.lines, 'redis is unavailable')).toHaveLength(1)
    expect(about(built.lines, 'redis is available again')).toHaveLength(1)
    const metrics = await app.promRegistry.metrics()
    expect(metrics).toMatch(/dependency_up\{dependency="redis"\} 1/)
    expect(metrics).toMatch(/dependency_errors_total\{dependency="redis"\} [1-9]/)
  })

  it('marks Redis down when the connection drops, before any command fails', async () => {
    redis = await startPrivateRedis()
    app = (await build(redis.url)).instance
    await redis.stop()
    await waitFor(
      'the lost connection to be noticed',
      async () => app?.redisState.status === 'down',
    )
  })

  it('refuses to start with wrong credentials, and stops trying: a misconfiguration, not an outage', async () => {
    redis = await startPrivateRedis({ password: 'the-right-one' })
    const url = `redis://default:wrong-password@127.0.0.1:${redis.port}`
    await expect(build(url)).rejects.toThrow(
      `Redis at redis://default:***@127.0.0.1:${redis.port} refused the connection: `,
    )
    const before = await connectionsReceived(redis, 'the-right-one')
    // A client left running would try again every 100 to 500 ms: five attempts or more.
    await sleep(1_500)
    expect(await connectionsReceived(redis, 'the-right-one')).toBe(before)
  })

  it('lets a command in flight finish when it closes (QUIT, not a cut connection)', async () => {
    redis = await startPrivateRedis()
    const { instance } = await build(redis.url)
    const waiting = instance.redis.blpop('nothing-to-pop', 0.3)
    await instance.close()
    await expect(waiting).resolves.toBeNull()
  })

  it('stops reconnecting when it closes while Redis is down', async () => {
    redis = await startPrivateRedis({ running: false })
    const { instance } = await build(redis.url)
    await instance.close()
    await waitFor('the client to end', async () => instance.redis.status === 'end', 5_000)
  })
})
