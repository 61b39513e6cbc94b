import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pressurePlugin from '../src/plugins/pressure.js'
import problemsPlugin from '../src/plugins/problems.js'
import { waitFor } from '../src/testing/index.js'

// @fastify/under-pressure wired in: an instance whose event loop lags refuses new work with a
// 503 problem and Retry-After, while its operations endpoints keep answering.

const app = Fastify()

beforeAll(async () => {
  await app.register(problemsPlugin)
  await app.register(pressurePlugin, {
    maxEventLoopDelayMs: 20,
    maxHeapUsedRatio: 0.99,
    // Longer than each block below, so every interval holds samples of the lag.
    sampleIntervalMs: 250,
  })
  app.get('/work', async () => ({ ok: true }))
  app.get('/health', async () => ({ status: 'ok' }))
  await app.ready()
})
afterAll(async () => {
  await app.close()
})

/** A lasting lag: the loop is blocked 50 ms at a time until stopped. */
function lagEventLoop(): () => void {
  const timer = setInterval(() => {
    const until = Date.now() + 50
    while (Date.now() < until) {
      // work that never yields
    }
  }, 1)
  return () => clearInterval(timer)
}

describe('under pressure', () => {
  it('answers 503 with Retry-After to new work, but keeps /health answering', async () => {
    expect((await app.inject({ url: '/work' })).statusCode).toBe(200)
    const stop = lagEventLoop()
    let refused: Awaited<ReturnType<typeof app.inject>>
    try {
      await waitFor(
        'the lag to be seen',
        async () => app.pressure() === 'eventLoopDelay',
        10_000,
        5,
      )
      refused = await app.inject({ url: '/work' })
      expect((await app.inject({ url: '/health' })).statusCode).toBe(200)
    } finally {
      stop()
    }
    expect(refused.statusCode).toBe(503)
    expect(refused.headers['retry-after']).toBe('10')
    expect(refused.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', reason: 'eventLoopDelay' })
    await waitFor('recovery', async () => app.pressure() === undefined, 10_000, 20)
    expect((await app.inject({ url: '/work' })).statusCode).toBe(200)
  }, 30_000)
})
