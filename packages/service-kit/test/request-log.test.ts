import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import Fastify, { type FastifyInstance } from 'fastify'
import { describe, expect, it, vi } from 'vitest'
import { fastifyOptions } from '../src/fastify-options.js'
import clientAddressPlugin from '../src/plugins/client-address.js'
import requestLogPlugin, { type RequestLogOptions } from '../src/plugins/request-log.js'
import responsePipeline from '../src/plugins/response-pipeline.js'
import { logLines } from './support/log-lines.js'

// Access logging: one line per request at info (or, with accessLog off, only at debug or
// trace); at info, a periodic digest of who called (by User-Agent), busiest first, and a last
// one on close.

async function appLogging(level: string, opts: RequestLogOptions = {}) {
  const log = logLines()
  // As the services run: Fastify's own request lines are off (fastifyOptions).
  const app = Fastify(
    fastifyOptions({ LOG_LEVEL: level as 'info', TRUST_PROXY: '' }, { logStream: log.stream }),
  )
  await app.register(responsePipeline)
  await app.register(clientAddressPlugin)
  await app.register(requestLogPlugin, opts)
  app.get('/items/:id', async () => 'ok')
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 40))
    return 'done'
  })
  app.get('/status/:code', async (request, reply) =>
    reply.code(Number((request.params as { code: string }).code)).send(''),
  )
  await app.ready()
  const logged = (msg: string) => log.lines().filter((line) => line.msg === msg)
  return { app, logged }
}

const as = (ua: string) => ({ 'user-agent': ua })

/** A request over HTTP with no User-Agent header (inject always sends one). */
async function withoutUserAgent(app: FastifyInstance, method: string, path: string) {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  await new Promise((resolve, reject) => {
    httpRequest({ port, host: '127.0.0.1', method, path }, (response) => {
      response.resume().on('end', resolve)
    })
      .on('error', reject)
      .end()
  })
}

describe('request log', () => {
  it('writes one line per request at info, with no header but the User-Agent', async () => {
    const { app, logged } = await appLogging('info')
    await app.inject({
      url: '/items/7?q=1',
      headers: { ...as('probe/1'), authorization: 'Bearer secret' },
      remoteAddress: '10.1.2.3',
    })
    await withoutUserAgent(app, 'POST', '/items/8')
    const lines = logged('request completed')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatchObject({
      level: 30,
      method: 'GET',
      url: '/items/7?q=1',
      route: '/items/:id',
      status: 200,
      ip: '10.1.2.3',
      ua: 'probe/1',
    })
    expect(JSON.stringify(lines[0])).not.toContain('secret')
    expect(lines[1]).toMatchObject({ method: 'POST', status: 404, ua: null })
    await app.close()
  })

  it('gives each line the time the request took, in ms to two decimals', async () => {
    const { app, logged } = await appLogging('info')
    await app.inject({ url: '/slow' })
    const [line] = logged('request completed')
    const ms = line?.ms as number
    expect(ms).toBeGreaterThanOrEqual(35)
    expect(ms).toBeLessThan(5_000)
    expect(Math.round(ms * 100)).toBeCloseTo(ms * 100, 6)
    await app.close()
  })

  it('ties each line to its request by the request id', async () => {
    const { app, logged } = await appLogging('info')
    const response = await app.inject({ url: '/items/1', headers: { 'x-request-id': 'trace-42' } })
    expect(response.statusCode).toBe(200)
    expect(logged('request completed')).toMatchObject([{ request_id: 'trace-42' }])
    await app.close()
  })

  it.each(['debug', 'trace'])('writes the per-request lines at %s too', async (level) => {
    const { app, logged } = await appLogging(level)
    await app.inject({ url: '/items/1' })
    expect(logged('request completed')).toHaveLength(1)
    await app.close()
  })

  it.each(['warn', 'silent'])('writes no per-request line at %s', async (level) => {
    const { app, logged } = await appLogging(level)
    await app.inject({ url: '/items/1' })
    await app.close()
    expect(logged('request completed')).toEqual([])
  })

  it('with accessLog off, writes per-request lines at debug only', async () => {
    const atInfo = await appLogging('info', { accessLog: false })
    await atInfo.app.inject({ url: '/items/1' })
    await atInfo.app.close()
    expect(atInfo.logged('request completed')).toEqual([])
    const atDebug = await appLogging('debug', { accessLog: false })
    await atDebug.app.inject({ url: '/items/1' })
    await atDebug.app.close()
    expect(atDebug.logged('request completed')).toMatchObject([{ level: 20, status: 200 }])
  })

  it('with accessLog off at info, writes only the digest on close', async () => {
    const { app, logged } = await appLogging('info', { accessLog: false })
    await app.inject({ url: '/items/1', headers: as('busy/2') })
    await app.inject({ url: '/items/2', headers: as('busy/2') })
    await app.inject({ url: '/status/404', headers: as('busy/2') })
    await app.inject({ url: '/items/3', headers: as('quiet/1') })
    await withoutUserAgent(app, 'GET', '/status/500')
    expect(logged('request completed')).toEqual([])
    expect(logged('client digest')).toEqual([])
    await app.close()
    const [digest, ...more] = logged('client digest')
    expect(more).toEqual([])
    expect(digest).toMatchObject({
      level: 30,
      clients: [
        { ua: 'busy/2', requests: 3, errors: 1 },
        { ua: 'quiet/1', requests: 1, errors: 0 },
        { ua: '(none)', requests: 1, errors: 1 },
      ],
      distinct_agents: 3,
      requests: 5,
      without_user_agent: 1,
    })
  })

  it('counts statuses from 400 up as errors', async () => {
    const { app, logged } = await appLogging('info')
    for (const code of [200, 399, 400, 503]) {
      await app.inject({ url: `/status/${code}`, headers: as('edge/1') })
    }
    await app.close()
    expect(logged('client digest')[0]?.clients).toEqual([{ ua: 'edge/1', requests: 4, errors: 2 }])
  })

  it('names the busiest clients only, as many as digestTop says', async () => {
    const { app, logged } = await appLogging('info', { digestTop: 2 })
    const agents = ['a', 'b', 'b', 'c', 'c', 'c']
    for (const ua of agents) await app.inject({ url: '/items/1', headers: as(ua) })
    await app.close()
    const [digest] = logged('client digest')
    expect(digest?.clients).toEqual([
      { ua: 'c', requests: 3, errors: 0 },
      { ua: 'b', requests: 2, errors: 0 },
    ])
    expect(digest).toMatchObject({ distinct_agents: 3, requests: 6, without_user_agent: 0 })
  })

  it('names twenty clients by default', async () => {
    const { app, logged } = await appLogging('info')
    for (let i = 0; i < 21; i += 1) await app.inject({ url: '/items/1', headers: as(`agent-${i}`) })
    await app.close()
    const [digest] = logged('client digest')
    expect(digest?.clients).toHaveLength(20)
    expect(digest?.distinct_agents).toBe(21)
  })

  it('writes a digest every interval, and none for an interval without requests', async () => {
    const { app, logged } = await appLogging('info', { digestIntervalMs: 60 })
    await app.inject({ url: '/items/1', headers: as('first/1') })
    await new Promise((resolve) => setTimeout(resolve, 100))
    await app.inject({ url: '/items/1', headers: as('second/1') })
    await new Promise((resolve) => setTimeout(resolve, 250))
    const digests = logged('client digest')
    expect(digests.map((digest) => digest.clients)).toEqual([
      [{ ua: 'first/1', requests: 1, errors: 0 }],
      [{ ua: 'second/1', requests: 1, errors: 0 }],
    ])
    await app.close()
    // Nothing since the last digest: the one on close is not written.
    expect(logged('client digest')).toHaveLength(2)
  })

  it('stops its digest timer on close', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      const { app } = await appLogging('info')
      expect(vi.getTimerCount()).toBe(1)
      await app.close()
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('is registered by name, and needs the response pipeline', async () => {
    const { app } = await appLogging('info')
    expect(app.hasPlugin('request-log')).toBe(true)
    await app.close()
    const alone = Fastify()
    alone.register(requestLogPlugin)
    await expect(alone.ready()).rejects.toThrow(/response-pipeline/)
  })

  it('stops tallying new agents at 10,000 (a flood of distinct agents)', async () => {
    const { app, logged } = await appLogging('info')
    for (let i = 0; i < 10_001; i += 1) {
      await app.inject({ url: '/items/1', headers: as(`flood-${i}`) })
    }
    await app.inject({ url: '/items/1', headers: as('flood-0') })
    await app.close()
    const [digest] = logged('client digest')
    expect(digest).toMatchObject({ distinct_agents: 10_000, requests: 10_001 })
    expect((digest?.clients as { ua: string }[] | undefined)?.[0]).toEqual({
      ua: 'flood-0',
      requests: 2,
      errors: 0,
    })
  }, 120_000)
})
