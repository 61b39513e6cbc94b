import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import responseHeaders, { helmetHeaders } from '../src/plugins/response-headers.js'
import responsePipeline from '../src/plugins/response-pipeline.js'

// Our own policy (the comparison with @fastify/helmet in response-headers.test.ts runs both on
// the same options, so it cannot see the options themselves), request ids, and errors that are
// never cached.

/** The CSP's directives, by name. */
const directives = (csp: string) =>
  Object.fromEntries(
    csp.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/)
      return [name, values.join(' ')]
    }),
  )

describe('our page policy', () => {
  it('lets pages load scripts, styles, images and forms from this origin only, and never be framed', () => {
    const headers = helmetHeaders()
    expect(directives(headers['content-security-policy'] ?? '')).toMatchObject({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
    })
    // Other sites' scripts may read the public API (CORS).
    expect(headers['cross-origin-resource-policy']).toBe('cross-origin')
  })
})

describe('headers on every answer', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = Fastify({ genReqId: () => 'req-fixed-1' })
    await app.register(responsePipeline)
    await app.register(responseHeaders)
    const cached = (status: number) => (_request: unknown, reply: import('fastify').FastifyReply) =>
      reply
        .code(status)
        .header('cache-control', 'public, max-age=3600')
        .header('etag', '"v1"')
        .send({ status })
    app.get('/ok', cached(200))
    app.get('/moved', cached(302))
    app.get('/bad', cached(400))
    app.get('/broken', cached(500))
    await app.ready()
  })
  afterAll(async () => {
    await app?.close()
  })

  it('carries the request id, on successes and errors alike', async () => {
    for (const url of ['/ok', '/bad', '/nowhere']) {
      expect((await app.inject({ url })).headers['x-request-id'], url).toBe('req-fixed-1')
    }
  })

  it('keeps what a route said about caching below 400', async () => {
    for (const url of ['/ok', '/moved']) {
      const res = await app.inject({ url })
      expect(res.headers['cache-control'], url).toBe('public, max-age=3600')
      expect(res.headers.etag, url).toBe('"v1"')
    }
  })

  it('makes every error, from 400 up, no-store and without an ETag, whatever the route set', async () => {
    for (const url of ['/bad', '/broken']) {
      const res = await app.inject({ url })
      expect(res.headers['cache-control'], url).toBe('no-store')
      expect(res.headers.etag, url).toBeUndefined()
    }
  })

  it('registers by name after the response pipeline it needs', async () => {
    expect(app.hasPlugin('response-headers')).toBe(true)
    const alone = Fastify()
    const registered = (async () => {
      await alone.register(responseHeaders)
      await alone.ready()
    })()
    await expect(registered).rejects.toThrow(
      "The dependency 'response-pipeline' of plugin 'response-headers' is not registered",
    )
    await alone.close()
  })
})
