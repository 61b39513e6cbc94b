import Fastify, { type FastifyInstance } from 'fastify'
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

// The Redis plugin against a Redis server of the test's own, stopped and started under it.

interface Line {
  level: number
  msg: string
}

let app: FastifyInstance | undefined
let redis: PrivateRedis | undefined
afterEach(async () => {
  await app?.close()
  await redis?.close()
  app = undefined
  redis = undefined
})

async function build(url: string) {
  const lines: Line[] = []
  const stream = { write: (line: string) => lines.push(JSON.parse(line) as Line) }
  const instance = Fastify({ logger: { level: 'info', stream } })
  await instance.register(responsePipeline)
  await instance.register(metricsPlugin)
  await instance.register(redisPlugin, { url, keyPrefix: 'plugin-test:' })
  await instance.ready()
  return { instance, lines }
}

const about = (lines: Line[], text: string) => lines.filter((line) => line.msg.includes(text))

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

  it('refuses to start with wrong credentials: a misconfiguration, not an outage', async () => {
    redis = await startPrivateRedis({ password: 'the-right-one' })
    const url = `redis://default:wrong-password@127.0.0.1:${redis.port}`
    await expect(build(url)).rejects.toThrow(/refused the connection/)
  })
})
