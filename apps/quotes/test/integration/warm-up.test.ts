import pg from 'pg'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WARM_UP_TERMS } from '../../src/lib/quote-store.js'
import { WARM_UP_AGENT, WARM_UP_SEARCH, warmUpRequests } from '../../src/plugins/warm-up.js'
import { createTestApp, JSON_ACCEPT, type TestApp, useTestApp } from '../support/test-app.js'

// The start-up warm-up (plugins/warm-up.ts): the requests an instance sends itself before it
// says it is ready, seen through /ready, /metrics and a client's per-address ceiling.

const primary = useTestApp('warm_up')
let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

/** Requests counted by route and status (http_request_duration_seconds_count). */
async function served(app: TestApp['app']): Promise<Record<string, number>> {
  const text = (await app.inject({ url: '/metrics' })).body
  const counts: Record<string, number> = {}
  const series =
    /^http_request_duration_seconds_count\{method="GET",route="([^"]*)",status_code="(\d+)"\} (\d+)$/gm
  for (const [, route, status, count] of text.matchAll(series)) {
    if (route === '/ready' || route === '/metrics') continue
    counts[`${route} ${status}`] = Number(count)
  }
  return counts
}

/** Polls /ready (as a load balancer does) until it answers 200. */
async function untilReady(app: TestApp['app']): Promise<void> {
  await vi.waitFor(async () => expect((await app.inject({ url: '/ready' })).statusCode).toBe(200), {
    timeout: 15_000,
    interval: 25,
  })
}

/** What had been served by the time /ready first answered 200. */
async function servedWhenReady(app: TestApp['app']): Promise<Record<string, number>> {
  await untilReady(app)
  return served(app)
}

describe('start-up warm-up', () => {
  it('has served a search, a random quote, one by id and the home page before /ready answers 200', async () => {
    expect(await servedWhenReady(primary.app)).toEqual({
      '/api/search 200': 2,
      '/search 200': 1,
      '/api 200': 2,
      '/api/q/:id 200': 1,
      '/ 200': 1,
    })
  })

  it("searches for a phrase the store's own warm-up has not cached, so that it reaches Postgres", () => {
    expect(WARM_UP_TERMS).not.toContain(WARM_UP_SEARCH)
    expect(warmUpRequests(primary.app.quoteStore)[0]?.url).toBe(
      `/api/search?term=${encodeURIComponent(WARM_UP_SEARCH)}`,
    )
  })

  it('sends only the searches when there are no quotes to show', () => {
    const urls = warmUpRequests({ idAt: () => undefined }).map((r) => r.url)
    expect(urls).toEqual([
      '/api/search?term=vkqw%20qjxz',
      '/api/search?term=vkqw%20qjxz',
      '/search?term=vkqw%20qjxz',
    ])
  })

  it("takes nothing from a real client's per-address ceiling", async () => {
    const n = warmUpRequests(primary.app.quoteStore).length
    t = await createTestApp('warm_up_ceiling', { RATE_LIMIT_MAX: String(n) })
    await untilReady(t.app)
    const statuses: number[] = []
    for (let i = 0; i <= n; i++) {
      statuses.push((await t.app.inject({ url: '/api', headers: JSON_ACCEPT })).statusCode)
    }
    expect(statuses).toEqual([...Array.from({ length: n }, () => 200), 429])
  })

  it('a refused warm-up request neither stops the others nor holds readiness', async () => {
    t = await createTestApp('warm_up_refused', { RATE_LIMIT_MAX: '1' })
    expect(await servedWhenReady(t.app)).toEqual({
      '/api/search 200': 1,
      '/api/search 429': 1,
      '/search 429': 1,
      '/api 429': 2,
      '/api/q/:id 429': 1,
      '/ 429': 1,
    })
  })

  it('a replica closed while it loads sends no warm-up request, and its warm-up settles', async () => {
    // The catalog reads the tags table last; a lock held on it keeps the replica's load waiting.
    const locker = new pg.Client({ connectionString: primary.db.url })
    await locker.connect()
    try {
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE tags IN ACCESS EXCLUSIVE MODE')
      // A cache too small for the corpus: the quote store then reads ids only, not the tags.
      t = await createTestApp('warm_up_close', { QUOTE_CACHE_MAX: '100' }, { shareWith: primary })
      const app = t.app
      const inject = vi.spyOn(app, 'inject')
      const closed = app.close()
      // The close has begun (its preClose hooks run at once); the load then gets its lock.
      await new Promise((resolve) => setTimeout(resolve, 200))
      await locker.query('COMMIT')
      await closed
      await app.warmedUp()
      // inject's overloads hide its argument's type from the spy.
      const calls = inject.mock.calls as unknown as [string | { headers?: object }][]
      const sent = calls.filter(
        ([options]) =>
          typeof options === 'object' &&
          (options.headers as Record<string, string> | undefined)?.['user-agent'] === WARM_UP_AGENT,
      )
      expect(sent).toEqual([])
    } finally {
      await locker.end()
    }
  })
})
