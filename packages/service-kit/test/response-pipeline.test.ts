import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import responsePipeline from '../src/plugins/response-pipeline.js'

// One onSend and one onResponse hook run every step the plugins register, on every response.

describe('response pipeline', () => {
  it('runs every before-send step in order, with the response it is about to send', async () => {
    const app = Fastify()
    await app.register(responsePipeline)
    app.beforeEverySend((_request, reply) => {
      reply.header('x-steps', 'first')
    })
    app.beforeEverySend((request, reply) => {
      reply.header('x-steps', `${reply.getHeader('x-steps')},second ${request.url}`)
    })
    app.get('/thing', async () => ({ body: 'kept' }))
    const found = await app.inject({ url: '/thing' })
    expect(found.headers['x-steps']).toBe('first,second /thing')
    expect(found.json()).toEqual({ body: 'kept' })
    // Responses no route matched go through the same steps.
    const missing = await app.inject({ url: '/nothing' })
    expect(missing.statusCode).toBe(404)
    expect(missing.headers['x-steps']).toBe('first,second /nothing')
    await app.close()
  })

  it('runs every after-response step once the response has been sent', async () => {
    const app = Fastify()
    await app.register(responsePipeline)
    const seen: string[] = []
    app.afterEveryResponse((request, reply) => {
      seen.push(`a ${request.url} ${reply.statusCode} ${reply.sent}`)
    })
    app.afterEveryResponse((request, reply) => {
      seen.push(`b ${request.url} ${reply.statusCode}`)
    })
    app.addHook('onResponse', async (request) => {
      seen.push(`later hook ${request.url}`)
    })
    app.get('/teapot', async (_request, reply) => reply.code(418).send('short and stout'))
    const response = await app.inject({ url: '/teapot' })
    expect(response.body).toBe('short and stout')
    // Hooks added after the pipeline run too.
    await new Promise((resolve) => setImmediate(resolve))
    expect(seen).toEqual(['a /teapot 418 true', 'b /teapot 418', 'later hook /teapot'])
    expect(app.hasPlugin('response-pipeline')).toBe(true)
    await app.close()
  })
})
