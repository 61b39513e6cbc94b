import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import Fastify from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import openApiPlugin from '../src/plugins/openapi.js'
import pagesPlugin, { KIT_STATIC_PREFIX } from '../src/plugins/pages.js'

// Server-rendered pages: Eta templates wrapped in layout.eta, escaped; the app's assets at
// /static/ and the kit's stylesheet at /static/kit/kit.css, cached for a day.

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kit-pages-'))
  writeFileSync(join(dir, 'layout.eta'), '<main data-site="<%= it.site %>"><%~ it.body %></main>')
  writeFileSync(join(dir, 'hello.eta'), '<p>Hello <%= it.name %></p>')
  writeFileSync(join(dir, 'app.css'), 'body { color: red }')
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

async function appWith(env?: string, defaultContext?: Record<string, unknown>) {
  const previous = process.env.NODE_ENV
  if (env === undefined) delete process.env.NODE_ENV
  else process.env.NODE_ENV = env
  try {
    const app = Fastify()
    await app.register(pagesPlugin, {
      views: dir,
      publicDir: dir,
      ...(defaultContext ? { defaultContext } : {}),
    })
    app.get('/hello', async (request, reply) =>
      reply.viewAsync('hello', { name: (request.query as { name: string }).name }),
    )
    app.get('/api', async (_request, reply) => ({
      locals: (reply as unknown as { locals?: unknown }).locals ?? 'none',
    }))
    await app.ready()
    return app
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = previous
  }
}

describe('pages', () => {
  it('leaves reply.sendFile to an app that serves files of its own', async () => {
    const app = Fastify()
    await app.register(pagesPlugin, { views: dir, publicDir: dir })
    await app.register(fastifyStatic, { root: dir, prefix: '/files/' })
    app.get('/download', (_request, reply) => reply.sendFile('app.css'))
    await app.ready()
    expect((await app.inject({ url: '/download' })).body).toBe('body { color: red }')
    await app.close()
  })

  it('renders a template inside the layout, escaping what it is given', async () => {
    const app = await appWith(undefined, { site: 'Quotes' })
    const response = await app.inject({ url: '/hello?name=<b>you</b>' })
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(
      '<main data-site="Quotes"><p>Hello &lt;b&gt;you&lt;/b&gt;</p></main>',
    )
    await app.close()
  })

  it('gives templates an empty default context when the app names none', async () => {
    const app = await appWith()
    expect((await app.inject({ url: '/hello?name=x' })).body).toBe(
      '<main data-site="undefined"><p>Hello x</p></main>',
    )
    await app.close()
  })

  it('keeps templates in memory in production, and reads them again in development', async () => {
    const production = await appWith('production', { site: 's' })
    const development = await appWith('development', { site: 's' })
    await production.inject({ url: '/hello?name=a' })
    await development.inject({ url: '/hello?name=a' })
    writeFileSync(join(dir, 'hello.eta'), '<p>Bye <%= it.name %></p>')
    expect((await production.inject({ url: '/hello?name=a' })).body).toContain('Hello a')
    expect((await development.inject({ url: '/hello?name=a' })).body).toContain('Bye a')
    await production.close()
    await development.close()
  })

  it('gives API replies no locals', async () => {
    const app = await appWith()
    expect((await app.inject({ url: '/api' })).json()).toEqual({ locals: 'none' })
    await app.close()
  })

  it('serves the app’s assets at /static/ and the kit’s stylesheet, cached for a day', async () => {
    const app = await appWith()
    const own = await app.inject({ url: '/static/app.css' })
    expect(own.statusCode).toBe(200)
    expect(own.body).toBe('body { color: red }')
    expect(own.headers['cache-control']).toBe('public, max-age=86400')
    const kit = await app.inject({ url: `${KIT_STATIC_PREFIX}kit.css` })
    expect(KIT_STATIC_PREFIX).toBe('/static/kit/')
    expect(kit.statusCode).toBe(200)
    expect(kit.headers['content-type']).toContain('text/css')
    expect(kit.headers['cache-control']).toBe('public, max-age=86400')
    expect(kit.body).toContain('--')
    await app.close()
  })

  it('stands beside the API reference (which serves files too), hidden from the document', async () => {
    const app = Fastify()
    await app.register(openApiPlugin, { title: 't', description: 'd', version: '1', tags: [] })
    app.decorateReply('locals', null)
    await app.register(pagesPlugin, { views: dir, publicDir: dir })
    await app.ready()
    expect(Object.keys((app.swagger() as { paths: object }).paths)).toEqual([])
    expect(app.hasPlugin('pages')).toBe(true)
    expect((await app.inject({ url: '/docs' })).statusCode).toBe(200)
    expect((await app.inject({ url: '/static/app.css' })).statusCode).toBe(200)
    await app.close()
  })
})
