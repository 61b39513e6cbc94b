import fastifyHelmet from '@fastify/helmet'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import responseHeaders, { HELMET_OPTIONS, helmetHeaders } from '../src/plugins/response-headers.js'
import responsePipeline from '../src/plugins/response-pipeline.js'

describe('helmetHeaders', () => {
  it('captures helmet’s headers once, with our CSP', () => {
    const headers = helmetHeaders()
    expect(headers['content-security-policy']).toContain("default-src 'self'")
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests')
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['strict-transport-security']).toBeUndefined()
  })
})

/** The same routes, behind @fastify/helmet (the plugin) or behind ours. */
async function appWith(kind: 'plugin' | 'ours'): Promise<FastifyInstance> {
  const app = Fastify()
  if (kind === 'plugin') await app.register(fastifyHelmet, HELMET_OPTIONS as never)
  else {
    await app.register(responsePipeline)
    await app.register(responseHeaders)
  }
  app.get('/page', (_request, reply) => reply.type('text/html; charset=utf-8').send('<p>hi</p>'))
  app.get('/json', () => ({ ok: true }))
  app.get('/text', (_request, reply) => reply.type('text/plain').send('hi'))
  app.get('/own-csp', (_request, reply) =>
    reply.type('text/html').header('content-security-policy', "default-src 'none'").send('<p/>'),
  )
  app.get('/page-error', (_request, reply) =>
    reply.code(500).type('text/html').send('<p>broken</p>'),
  )
  app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/html').send('<p>404</p>'))
  return app
}

/**
 * The hand-written headers (see response-headers.ts) are pinned to @fastify/helmet's: for every
 * HTML answer, each header the plugin sets is set to the same value; data answers get the
 * plugin's nosniff, and only that.
 */
describe('response headers against @fastify/helmet', () => {
  let plugin: FastifyInstance
  let ours: FastifyInstance
  beforeAll(async () => {
    plugin = await appWith('plugin')
    ours = await appWith('ours')
  })
  afterAll(async () => {
    await plugin?.close()
    await ours?.close()
  })

  const helmetNames = Object.keys(helmetHeaders())

  it('HTML pages (found, failed, not found) carry exactly the plugin’s headers', async () => {
    for (const url of ['/page', '/page-error', '/nowhere']) {
      const [a, b] = await Promise.all([plugin.inject({ url }), ours.inject({ url })])
      expect(b.statusCode).toBe(a.statusCode)
      const pluginSet = helmetNames.filter((name) => a.headers[name] !== undefined)
      expect(pluginSet.length).toBeGreaterThan(8)
      for (const name of helmetNames)
        expect([url, name, b.headers[name]]).toEqual([url, name, a.headers[name]])
    }
  })

  it('data answers (JSON, text) carry the plugin’s nosniff and none of the page headers', async () => {
    for (const url of ['/json', '/text']) {
      const [a, b] = await Promise.all([plugin.inject({ url }), ours.inject({ url })])
      expect(b.headers['x-content-type-options']).toBe(a.headers['x-content-type-options'])
      for (const name of helmetNames.filter((n) => n !== 'x-content-type-options')) {
        expect([url, name, b.headers[name]]).toEqual([url, name, undefined])
      }
    }
  })

  it('a route’s own CSP wins, as with the plugin', async () => {
    const [a, b] = await Promise.all([
      plugin.inject({ url: '/own-csp' }),
      ours.inject({ url: '/own-csp' }),
    ])
    expect(a.headers['content-security-policy']).toBe("default-src 'none'")
    expect(b.headers['content-security-policy']).toBe("default-src 'none'")
  })
})
