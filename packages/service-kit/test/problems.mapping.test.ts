import { Writable } from 'node:stream'
import type { ProblemCode } from '@repo/contracts'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { DependencyState } from '../src/dependency-state.js'
import { HttpProblem } from '../src/errors.js'
import problemsPlugin, { classifyError } from '../src/plugins/problems.js'

// What a client gets for each kind of failure, and what the operator sees in the logs.

const thrown = (props: Record<string, unknown>): Error =>
  Object.assign(new Error(String(props.message ?? 'the message')), props)

describe('classifyError, every mapping', () => {
  it.each([
    [401, 'UNAUTHORIZED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [405, 'METHOD_NOT_ALLOWED'],
    [413, 'PAYLOAD_TOO_LARGE'],
    [415, 'UNSUPPORTED_MEDIA_TYPE'],
    [429, 'RATE_LIMITED'],
  ])('gives status %i its own code, %s, with the message', (statusCode, code) => {
    expect(classifyError(thrown({ statusCode }))).toEqual({
      code,
      status: statusCode,
      detail: 'the message',
    })
  })

  it('says no more than "temporarily unavailable" for a plain 503', () => {
    expect(
      classifyError(thrown({ statusCode: 503, message: 'pool exhausted at 10.0.0.5' })),
    ).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      detail: 'The service is temporarily unavailable.',
    })
  })

  it('makes any other 4xx a 400, and keeps 5xx and statusless errors as a 500 without details', () => {
    for (const statusCode of [400, 418, 499]) {
      expect(classifyError(thrown({ statusCode }))).toEqual({
        code: 'INVALID_REQUEST',
        status: 400,
        detail: 'the message',
      })
    }
    for (const props of [{ statusCode: 500 }, { statusCode: 399 }, { statusCode: 502 }, {}]) {
      expect(classifyError(thrown(props))).toEqual({
        code: 'INTERNAL_ERROR',
        status: 500,
        detail: 'An unexpected error occurred.',
      })
    }
  })

  it("words Fastify's body errors for the client", () => {
    expect(classifyError(thrown({ code: 'FST_ERR_CTP_BODY_TOO_LARGE' }))).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      status: 413,
      detail: 'The request body is too large.',
    })
    expect(classifyError(thrown({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }))).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      status: 415,
      detail: 'Send the body as application/json.',
    })
    expect(classifyError(thrown({ code: 'FST_ERR_CTP_EMPTY_JSON_BODY' }))).toEqual({
      code: 'INVALID_REQUEST',
      status: 400,
      detail: 'The body is not valid JSON.',
    })
  })

  it('answers a store that is down with 503 and Retry-After, flagged for its state', () => {
    expect(
      classifyError(thrown({ code: 'ECONNREFUSED', message: 'connect 10.0.0.5:5432' })),
    ).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      detail: 'A service this request needs is unavailable right now; retry shortly.',
      headers: { 'retry-after': '5' },
      unavailable: true,
    })
  })
})

/** An app with the plugin, a route throwing what it is given, and its log lines kept. */
async function appThrowing(
  error: Error,
  opts: { withState?: boolean; counted?: ProblemCode[] } = {},
) {
  const lines: Array<{ level: number; msg: string; err?: { message: string } }> = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  const app = Fastify({ logger: { level: 'debug', stream } })
  const state = new DependencyState({ name: 'postgres', log: app.log })
  if (opts.withState) app.decorate('postgresState', state)
  if (opts.counted) {
    const counted = opts.counted
    app.decorate('countProblem', (code: ProblemCode) => counted.push(code))
  }
  await app.register(problemsPlugin)
  app.get('/fail', async () => {
    throw error
  })
  await app.ready()
  const logged = (msg: string) => lines.filter((line) => line.msg === msg)
  return { app, state, logged }
}

describe('the problems plugin', () => {
  it('sends problem+json, counts the code, and logs a server failure as an error with its cause', async () => {
    const counted: ProblemCode[] = []
    const { app, logged } = await appThrowing(new Error('bug'), { counted })
    try {
      const res = await app.inject({ url: '/fail' })
      expect(res.statusCode).toBe(500)
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8')
      expect(res.json()).toMatchObject({
        code: 'INTERNAL_ERROR',
        detail: 'An unexpected error occurred.',
      })
      expect(counted).toEqual(['INTERNAL_ERROR'])
      const [line] = logged('request failed')
      expect(line?.level).toBe(50)
      expect(line?.err?.message).toBe('bug')
      expect(logged('client error')).toEqual([])
    } finally {
      await app.close()
    }
  })

  it('logs a refusal the service chose (an HttpProblem 503) as a warning with its code, no stack', async () => {
    const refusal = new HttpProblem('OVERLOADED', 'Every feature worker is busy.', {
      headers: { 'retry-after': '2' },
    })
    const { app, logged } = await appThrowing(refusal)
    try {
      const res = await app.inject({ url: '/fail' })
      expect(res.statusCode).toBe(503)
      expect(res.headers['retry-after']).toBe('2')
      expect(logged('request failed')).toEqual([])
      const [line] = logged('request refused')
      expect(line).toMatchObject({
        level: 40,
        code: 'OVERLOADED',
        detail: 'Every feature worker is busy.',
      })
      expect(line?.err).toBeUndefined()
    } finally {
      await app.close()
    }
  })

  it('logs an INTERNAL_ERROR thrown on purpose as an error all the same', async () => {
    const { app, logged } = await appThrowing(new HttpProblem('INTERNAL_ERROR', 'broken'))
    try {
      expect((await app.inject({ url: '/fail' })).statusCode).toBe(500)
      expect(logged('request refused')).toEqual([])
      expect(logged('request failed')[0]?.level).toBe(50)
    } finally {
      await app.close()
    }
  })

  it("logs a client's mistake at debug level only", async () => {
    const { app, logged } = await appThrowing(thrown({ statusCode: 404, message: 'no such thing' }))
    try {
      expect((await app.inject({ url: '/fail' })).statusCode).toBe(404)
      expect(logged('request failed')).toEqual([])
      const [line] = logged('client error')
      expect(line?.level).toBe(20)
      expect(line?.err?.message).toBe('no such thing')
    } finally {
      await app.close()
    }
  })

  it("reports a store that is down to Postgres's state, once, instead of an error line per request", async () => {
    const { app, state, logged } = await appThrowing(thrown({ code: 'ECONNREFUSED' }), {
      withState: true,
    })
    try {
      const res = await app.inject({ url: '/fail' })
      expect(res.statusCode).toBe(503)
      expect(res.headers['retry-after']).toBe('5')
      expect(state.isUp).toBe(false)
      expect(logged('request failed')).toEqual([])
    } finally {
      await app.close()
    }
  })

  it('answers a store that is down with 503 even in an app without a Postgres state', async () => {
    const { app } = await appThrowing(thrown({ code: 'ECONNRESET' }))
    try {
      expect((await app.inject({ url: '/fail' })).statusCode).toBe(503)
      expect(app.hasPlugin('problems')).toBe(true)
    } finally {
      await app.close()
    }
  })

  it('names the path (without its query, at most 200 characters) and the method in a 404 or 405', async () => {
    const { app } = await appThrowing(new Error('unused'))
    try {
      const missing = await app.inject({ method: 'GET', url: '/nope?secret=1' })
      expect(missing.json().detail).toBe('Nothing is at GET /nope.')
      const long = `/${'a'.repeat(250)}`
      expect((await app.inject({ url: long })).json().detail).toBe(
        `Nothing is at GET ${long.slice(0, 200)}….`,
      )
      const exactly = `/${'b'.repeat(199)}`
      expect((await app.inject({ url: exactly })).json().detail).toBe(
        `Nothing is at GET ${exactly}.`,
      )
      const wrongMethod = await app.inject({ method: 'DELETE', url: '/fail' })
      expect(wrongMethod.json().detail).toBe('/fail answers GET, HEAD, not DELETE.')
    } finally {
      await app.close()
    }
  })
})
