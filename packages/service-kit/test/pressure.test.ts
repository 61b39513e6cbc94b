import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pressurePlugin, { type PressureOptions } from '../src/plugins/pressure.js'
import problemsPlugin from '../src/plugins/problems.js'
import { waitFor } from '../src/testing/index.js'

// @fastify/under-pressure wired in: an instance whose event loop lags refuses new work with a
// 503 problem and Retry-After, while its operations endpoints keep answering.

/** An app with the plugins and a work route beside the operations endpoints. */
async function appUnder(options: PressureOptions) {
  const app = Fastify()
  await app.register(problemsPlugin)
  await app.register(pressurePlugin, options)
  for (const url of ['/work', '/health', '/ready', '/metrics']) app.get(url, async () => 'ok')
  await app.ready()
  return app
}

let app: Awaited<ReturnType<typeof appUnder>>
beforeAll(async () => {
  app = await appUnder({
    maxEventLoopDelayMs: 20,
    maxHeapUsedRatio: 0.99,
    // Longer than each block below, so every interval holds samples of the lag.
    sampleIntervalMs: 250,
  })
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

describe('under memory pressure', () => {
  // A heap limit no process stays under: 1 millionth of V8's (a few kilobytes).
  let tight: Awaited<ReturnType<typeof appUnder>>
  beforeAll(async () => {
    tight = await appUnder({
      maxEventLoopDelayMs: 60_000,
      maxHeapUsedRatio: 0.000_001,
      sampleIntervalMs: 10,
    })
  })
  afterAll(async () => {
    await tight.close()
  })

  it('refuses new work past its share of the heap limit, naming the reason, with the operations endpoints exempt', async () => {
    await waitFor('the heap to be sampled', async () => tight.pressure() === 'heapUsedBytes')
    const refused = await tight.inject({ url: '/work' })
    expect(refused.statusCode).toBe(503)
    expect(refused.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      reason: 'heapUsedBytes',
      detail: 'This instance is overloaded right now; retry shortly.',
    })
    for (const url of ['/health', '/ready', '/metrics']) {
      expect((await tight.inject({ url })).statusCode, url).toBe(200)
    }
  })

  it('is under no pressure at a sensible limit, and is registered by name for plugins that need it', () => {
    expect(app.pressure()).toBeUndefined()
    expect(app.hasPlugin('pressure')).toBe(true)
  })
})
