import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import type { BaseConfig } from '../src/config.js'
import { fastifyOptions } from '../src/fastify-options.js'
import { logLines } from './support/log-lines.js'

// The options every server and test app is built with: request ids, log redaction, proxy trust,
// routing and validation as production has them.

const base: Pick<BaseConfig, 'LOG_LEVEL' | 'TRUST_PROXY'> = { LOG_LEVEL: 'info', TRUST_PROXY: '' }

async function appWith(
  config = base,
  logLevel = config.LOG_LEVEL,
  routes: (app: FastifyInstance) => void = () => {},
) {
  const log = logLines()
  const app = Fastify(fastifyOptions({ ...config, LOG_LEVEL: logLevel }, { logStream: log.stream }))
  app.get('/id', async (request) => ({ id: request.id, ip: request.ip }))
  app.get('/say/:word', async (request) => request.params)
  app.get(
    '/list',
    { schema: { querystring: Type.Object({ n: Type.Array(Type.Integer()) }) } },
    async (request) => request.query,
  )
  app.post('/echo', async (request) => ({ size: JSON.stringify(request.body).length }))
  routes(app)
  await app.ready()
  return { app, lines: log.lines }
}

const idOf = async (app: FastifyInstance, supplied?: string) =>
  (
    await app.inject({
      url: '/id',
      headers: supplied === undefined ? {} : { 'x-request-id': supplied },
    })
  ).json().id as string

describe('fastifyOptions', () => {
  it('keeps a short, plain request id from the client', async () => {
    const { app } = await appWith()
    expect(await idOf(app, 'abc-123_x.y:z')).toBe('abc-123_x.y:z')
    expect(await idOf(app, 'a'.repeat(64))).toBe('a'.repeat(64))
    await app.close()
  })

  it('replaces a request id that is long, empty or could forge log lines', async () => {
    const { app } = await appWith()
    for (const bad of ['a'.repeat(65), '', 'x y', 'id\nforged', 'ok\u00e9', 'a/b']) {
      const id = await idOf(app, bad)
      expect(id).not.toBe(bad)
      expect(id).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/)
    }
    await app.close()
  })

  it('numbers its own ids in order after one random prefix per process', async () => {
    const { app } = await appWith()
    const ids = [await idOf(app), await idOf(app), await idOf(app)]
    // 6 random bytes in base64url: 8 characters, which may include '-'.
    const prefix = (ids[0] as string).slice(0, 9)
    const numbers = ids.map((id) => {
      expect(id.startsWith(prefix)).toBe(true)
      return Number.parseInt(id.slice(prefix.length), 36)
    })
    expect(numbers[1]).toBe((numbers[0] as number) + 1)
    expect(numbers[2]).toBe((numbers[0] as number) + 2)
    await app.close()
  })

  it('logs the request id as request_id, and no line per request of its own', async () => {
    const { app, lines } = await appWith(base, 'debug')
    app.log.child({}).info('before')
    const response = await app.inject({ url: '/say/hi', headers: { 'x-request-id': 'trace-me' } })
    expect(response.statusCode).toBe(200)
    expect(lines().filter((line) => line.request_id === 'trace-me')).toEqual([])
    await app.close()
  })

  it('redacts credentials from anything logged with the request’s headers', async () => {
    const { app, lines } = await appWith(base, 'info', (routes) => {
      routes.get('/leak', async (request, reply) => {
        request.log.info({ req: request, headers: request.headers }, 'a stray log')
        reply.header('set-cookie', 'session=s3cret')
        request.log.info({ res: { headers: reply.getHeaders() } }, 'another')
        return 'ok'
      })
    })
    const response = await app.inject({
      url: '/leak',
      headers: { authorization: 'Bearer k3y', cookie: 'session=c00kie', 'x-request-id': 'leak-1' },
    })
    expect(response.statusCode).toBe(200)
    const logged = JSON.stringify(lines())
    for (const secret of ['k3y', 'c00kie', 's3cret']) expect(logged).not.toContain(secret)
    const stray = lines().find((line) => line.msg === 'a stray log')
    expect(stray).toMatchObject({
      request_id: 'leak-1',
      headers: { authorization: '[redacted]', cookie: '[redacted]' },
    })
    await app.close()
  })

  it('logs at the configured level', async () => {
    const { app, lines } = await appWith({ ...base, LOG_LEVEL: 'warn' })
    app.log.info('quiet')
    app.log.warn('loud')
    expect(lines().map((line) => line.msg)).toEqual(['loud'])
    await app.close()
  })

  it('believes X-Forwarded-For from no one by default, and from the named proxies', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.9' }
    const { app: direct } = await appWith()
    const seen = await direct.inject({ url: '/id', headers: forwarded, remoteAddress: '127.0.0.1' })
    expect(seen.json().ip).toBe('127.0.0.1')
    await direct.close()
    const { app: proxied } = await appWith({ ...base, TRUST_PROXY: '127.0.0.1' })
    const through = await proxied.inject({
      url: '/id',
      headers: forwarded,
      remoteAddress: '127.0.0.1',
    })
    expect(through.json().ip).toBe('203.0.113.9')
    await proxied.close()
  })

  it('routes with and without a trailing slash, and refuses parameters over 200 characters (414)', async () => {
    const { app } = await appWith()
    expect((await app.inject({ url: '/say/hi/' })).json()).toEqual({ word: 'hi' })
    expect((await app.inject({ url: `/say/${'w'.repeat(200)}` })).statusCode).toBe(200)
    expect((await app.inject({ url: `/say/${'w'.repeat(201)}` })).statusCode).toBe(414)
    await app.close()
  })

  it('reads query strings with its own parser and coerces single values to arrays', async () => {
    const { app } = await appWith()
    expect((await app.inject({ url: '/list?n=4' })).json()).toEqual({ n: [4] })
    expect((await app.inject({ url: '/list?n=4&n=5' })).json()).toEqual({ n: [4, 5] })
    expect((await app.inject({ url: '/list?n=x' })).statusCode).toBe(400)
    await app.close()
  })

  it('refuses properties a body schema does not allow instead of dropping them', async () => {
    const strict = Type.Object({ name: Type.String() }, { additionalProperties: false })
    const { app } = await appWith(base, 'info', (routes) => {
      routes.post('/strict', { schema: { body: strict } }, async (request) => request.body)
    })
    const post = (payload: object) => app.inject({ method: 'POST', url: '/strict', payload })
    expect((await post({ name: 'a' })).json()).toEqual({ name: 'a' })
    expect((await post({ name: 'a', extra: 1 })).statusCode).toBe(400)
    await app.close()
  })

  it('names the first invalid field only', async () => {
    const two = Type.Object({ a: Type.Integer(), b: Type.Integer() })
    const { app } = await appWith(base, 'info', (routes) => {
      routes.post('/two', { schema: { body: two } }, async (request) => request.body)
    })
    const response = await app.inject({ method: 'POST', url: '/two', payload: { a: 'x', b: 'y' } })
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toBe('body/a must be integer')
    await app.close()
  })

  it('accepts bodies up to 1 MiB', async () => {
    const { app } = await appWith()
    // A JSON body of exactly `size` bytes.
    const post = async (size: number) =>
      (
        await app.inject({
          method: 'POST',
          url: '/echo',
          payload: JSON.stringify({ s: 'x'.repeat(size - 8) }),
          headers: { 'content-type': 'application/json' },
        })
      ).statusCode
    expect(await post(1_048_576)).toBe(200)
    expect(await post(1_048_577)).toBe(413)
    await app.close()
  })

  it('sets the connection limits servers run with, and lets a caller override any', () => {
    const options = fastifyOptions(base, { bodyLimit: 10 })
    expect(options).toMatchObject({
      keepAliveTimeout: 72_000,
      requestTimeout: 30_000,
      connectionTimeout: 60_000,
      bodyLimit: 10,
      return503OnClosing: true,
      forceCloseConnections: 'idle',
    })
    expect(options).not.toHaveProperty('logStream')
    expect(fastifyOptions(base).bodyLimit).toBe(1_048_576)
  })
})
