import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { HttpProblem } from '../src/errors.js'
import problemsPlugin, { classifyError } from '../src/plugins/problems.js'

function fastifyError(props: Record<string, unknown>): Error {
  return Object.assign(new Error(String(props.message ?? 'x')), props)
}

describe('classifyError', () => {
  it('keeps an HttpProblem as thrown, with its headers and extra members', () => {
    const problem = new HttpProblem('QUOTA_EXCEEDED', 'used up', {
      extra: { limit: 1000 },
      headers: { 'retry-after': '60' },
    })
    expect(classifyError(problem)).toEqual({
      code: 'QUOTA_EXCEEDED',
      status: 429,
      detail: 'used up',
      extra: { limit: 1000 },
      headers: { 'retry-after': '60' },
    })
  })

  it('maps validation and body-parser errors to 4xx codes', () => {
    expect(
      classifyError(fastifyError({ validation: [{}], message: 'body/x must be string' })),
    ).toMatchObject({
      code: 'INVALID_REQUEST',
      status: 400,
      detail: 'body/x must be string',
    })
    expect(
      classifyError(fastifyError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })).code,
    ).toBe('PAYLOAD_TOO_LARGE')
    expect(
      classifyError(fastifyError({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 })).code,
    ).toBe('UNSUPPORTED_MEDIA_TYPE')
    expect(
      classifyError(fastifyError({ code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 })),
    ).toMatchObject({
      code: 'INVALID_REQUEST',
      detail: 'The body is not valid JSON.',
    })
  })

  it('never leaks the details of a server error', () => {
    const classified = classifyError(new Error('connection to 10.0.0.5 refused, password=hunter2'))
    expect(classified).toEqual({
      code: 'INTERNAL_ERROR',
      status: 500,
      detail: 'An unexpected error occurred.',
    })
  })
})

describe('routes that exist for other methods', () => {
  async function appWithRoutes() {
    const app = Fastify()
    await app.register(problemsPlugin)
    app.get('/items', async () => ({ ok: true }))
    app.post('/items', async () => ({ ok: true }))
    app.get('/items/:id', async () => ({ ok: true }))
    app.post('/logout', async () => ({ ok: true }))
    // A catch-all (static files, CORS preflight) must not make every path "exist".
    app.get('/*', async (_request, reply) => reply.callNotFound())
    app.options('*', async () => '')
    await app.ready()
    return app
  }

  it('answers 405 with Allow when the path has routes for other methods', async () => {
    const app = await appWithRoutes()
    try {
      const deleted = await app.inject({ method: 'DELETE', url: '/items?x=1' })
      expect(deleted.statusCode).toBe(405)
      expect(deleted.headers.allow).toBe('GET, HEAD, POST')
      expect(deleted.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 })

      // The route's absence wins over a body that cannot be parsed.
      const put = await app.inject({
        method: 'PUT',
        url: '/items/42',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      })
      expect(put.statusCode).toBe(405)
      expect(put.headers.allow).toBe('GET, HEAD')

      // GET reaches the catch-all, which hands over to the not-found handler.
      const get = await app.inject({ method: 'GET', url: '/logout' })
      expect(get.statusCode).toBe(405)
      expect(get.headers.allow).toBe('POST')
    } finally {
      await app.close()
    }
  })

  it('answers 404 when no route has the path, whatever catch-alls match', async () => {
    const app = await appWithRoutes()
    try {
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const response = await app.inject({ method, url: '/nothing/here' })
        expect(response.statusCode).toBe(404)
        expect(response.headers.allow).toBeUndefined()
        expect(response.json()).toMatchObject({ code: 'NOT_FOUND' })
      }
    } finally {
      await app.close()
    }
  })
})
