import app from '@repo/quotes/src/app.js'
import { loadQuotesConfig, type QuotesConfig } from '@repo/quotes/src/config.js'
import { prepareDatabase } from '@repo/quotes/src/lib/database.js'
import { createServiceTestApp, type ServiceTestApp } from '@repo/service-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createQuotesClient, ProblemError, unwrap } from '../src/index.js'

// The client against the real quotes app (its sources, on a fresh database, listening) over
// HTTP: a ceiling of 2 requests a second per address gives 429s with `Retry-After: 1` to retry
// (or not).
let t: ServiceTestApp<QuotesConfig>
let baseUrl = ''

beforeAll(async () => {
  t = await createServiceTestApp({
    label: 'client_quotes',
    loadConfig: loadQuotesConfig,
    prepareDatabase,
    app,
    env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '1000' },
  })
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(async () => {
  await t?.close()
})

/** Waits for the start of a fresh one-second window, so a test's first 2 requests are admitted. */
const freshWindow = () => new Promise((resolve) => setTimeout(resolve, 1_100))

describe('typed quotes client', () => {
  it('sends page and limit as numbers and reads typed JSON', async () => {
    await freshWindow()
    const api = createQuotesClient({ baseUrl, userAgent: 'client-test' })
    const page = await unwrap(api.GET('/api/search', { params: { query: { limit: 2, page: 1 } } }))
    expect(page.limit).toBe(2)
    expect(page.results).toHaveLength(2)
    const quote = await unwrap(
      api.GET('/api/q/{id}', { params: { path: { id: page.results[0]?.id ?? '' } } }),
    )
    expect(quote).toEqual({ ...page.results[0], status: 200 })
  })

  it('retries a 429 after its Retry-After, and succeeds in the next window', async () => {
    await freshWindow()
    const api = createQuotesClient({ baseUrl, retry: { retries: 3, maxWaitSeconds: 5 } })
    const started = Date.now()
    const statuses: number[] = []
    for (let i = 0; i < 3; i += 1) {
      statuses.push(
        (await api.GET('/api/search', { params: { query: { limit: 1 } } })).response.status,
      )
    }
    // The third was refused (2 a second), waited the second it was told, then was admitted.
    expect(statuses).toEqual([200, 200, 200])
    expect(Date.now() - started).toBeGreaterThanOrEqual(500)
  })

  it('hands back a 429 whose wait is longer than it may wait, as a typed ProblemError', async () => {
    await freshWindow()
    const api = createQuotesClient({ baseUrl, retry: { maxWaitSeconds: 0 } })
    await unwrap(api.GET('/api'))
    await unwrap(api.GET('/api'))
    const started = Date.now()
    const error = await unwrap(api.GET('/api')).catch((thrown: unknown) => thrown)
    expect(Date.now() - started).toBeLessThan(900)
    expect(error).toBeInstanceOf(ProblemError)
    const problem = error as ProblemError
    expect(problem).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 1 })
    expect(problem.rateLimit).toMatchObject({ limit: 2, remaining: 0 })

    // Its `type` resolves, against the request's URL, to the page describing the code.
    await freshWindow()
    const page = await fetch(new URL(problem.problem.type, baseUrl))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await page.text()
    expect(html).toContain('<code>RATE_LIMITED</code>')
    expect(html).toContain('<dd>429</dd>')
    expect(html).toContain('Retry-After')
  })

  it('answers the 4xx its document lists for a quote id: 400 (too long), 404 (unknown)', async () => {
    await freshWindow()
    const api = createQuotesClient({ baseUrl, retry: { retries: 0 } })
    const long = await api.GET('/api/q/{id}', { params: { path: { id: `q${'1'.repeat(64)}` } } })
    expect(long.response.status).toBe(400)
    expect(long.error).toMatchObject({ code: 'INVALID_REQUEST' })
    const unknown = await api.GET('/api/q/{id}', { params: { path: { id: 'q999999999' } } })
    expect(unknown.response.status).toBe(404)
    expect(unknown.error).toMatchObject({ code: 'NOT_FOUND' })
  })

  it('lists every code at /problems; an unknown code is a 404 problem', async () => {
    const index = await fetch(new URL('/problems', baseUrl))
    expect(index.status).toBe(200)
    const html = await index.text()
    for (const code of ['INVALID_REQUEST', 'QUOTA_EXCEEDED', 'OVERLOADED']) {
      expect(html).toContain(`href="/problems/${code.toLowerCase().replaceAll('_', '-')}"`)
    }
    const missing = await fetch(new URL('/problems/teapot', baseUrl), {
      headers: { accept: 'application/json' },
    })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND', type: '/problems/not-found' })
  })
})
