import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp('ops')
})
afterAll(async () => {
  await t?.close()
})

describe('operations endpoints', () => {
  it('/health says the process is alive', async () => {
    const res = await t.app.inject({ url: '/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ok' })
  })

  it('/ready checks Postgres, Redis and that the catalog has loaded', async () => {
    const res = await t.app.inject({ url: '/ready' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { load: 'up', postgres: 'up', redis: 'up', catalog: 'up' },
    })
  })

  it('/ready is 503 while the catalog’s first load runs, then 200 without a restart', async () => {
    // The catalog reads the tags table last; a lock held on it keeps a new replica's first load waiting.
    const locker = new pg.Client({ connectionString: t.db.url })
    await locker.connect()
    let replica: TestApp | undefined
    try {
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE tags IN ACCESS EXCLUSIVE MODE')
      // A cache too small for the corpus: the quote store then reads ids only, not the tags.
      // The held catalog check answers "down" once the readiness timeout passes; the other
      // probes must answer within it, which 100 ms was too short for on a busy CI machine
      // (Postgres and Redis reported down beside the catalog).
      const env = { READY_CHECK_TIMEOUT_MS: '2000', QUOTE_CACHE_MAX: '100' }
      replica = await createTestApp('ops', env, { shareWith: t })
      const warming = await replica.app.inject({ url: '/ready' })
      expect(warming.statusCode).toBe(503)
      expect(warming.json()).toEqual({
        status: 'unavailable',
        checks: { load: 'up', postgres: 'up', redis: 'up', catalog: 'down' },
      })
      await locker.query('COMMIT')
      const app = replica.app
      await vi.waitFor(
        async () => expect((await app.inject({ url: '/ready' })).statusCode).toBe(200),
        { timeout: 15_000, interval: 50 },
      )
    } finally {
      await locker.end()
      await replica?.close()
    }
  })

  it('/metrics exposes request counts and latencies by route and status', async () => {
    // The warm-up's own request by id is counted too (plugins/warm-up.ts).
    await t.app.warmedUp()
    await t.app.inject({ url: '/api/q/q1' })
    await t.app.inject({ url: '/api/q/q99999999' })
    const res = await t.app.inject({ url: '/metrics' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.body).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/api\/q\/:id"[^}]*status_code="200"[^}]*\} 2\n/,
    )
    expect(res.body).toMatch(/http_request_duration_seconds_count\{[^}]*status_code="404"/)
    expect(res.body).toContain('dependency_errors_total')
    expect(res.body).toContain('process_resident_memory_bytes')
  })

  it('/docs/json is an OpenAPI 3 document generated from the routes', async () => {
    const res = await t.app.inject({ url: '/docs/json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api', '/api/q/{id}', '/api/search', '/health', '/ready']),
    )
    expect(doc.paths['/q/{id}']).toBeUndefined()
    const search = doc.paths['/api/search'].get
    expect(search.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['term', 'page', 'limit']),
    )
    expect(Object.keys(search.responses)).toEqual(expect.arrayContaining(['200', '400', '429']))
    expect(Object.keys(search.responses['200'].content)).toEqual(
      expect.arrayContaining(['application/json', 'text/plain', 'text/html']),
    )
  })

  it('/docs/json documents the author, tag, today and card routes', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json()
    const operations = new Map<string, { security: unknown[]; tags: string[]; responses: object }>()
    for (const methods of Object.values(doc.paths) as Record<string, never>[]) {
      for (const op of Object.values(methods) as { operationId?: string }[]) {
        if (op.operationId) operations.set(op.operationId, op as never)
      }
    }
    for (const id of ['getRandomQuote', 'listAuthors', 'getAuthor', 'listTags', 'quoteOfTheDay']) {
      const op = operations.get(id)
      expect(op, id).toBeDefined()
      expect(op?.security).toEqual([])
      expect(op?.tags.length).toBeGreaterThan(0)
    }
    expect(Object.keys(operations.get('getAuthor')?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '304', '400', '404', '429']),
    )
    expect(Object.keys(doc.paths['/q/{id}.png'].get.responses['200'].content)).toEqual([
      'image/png',
    ])
    const random = doc.paths['/api'].get.parameters as { name: string; schema: { type: string } }[]
    expect(random.find((p) => p.name === 'minLength')?.schema.type).toBe('integer')
    const authors = doc.paths['/api/authors'].get.parameters as typeof random
    expect(authors.find((p) => p.name === 'page')?.schema.type).toBe('integer')
  })

  it('/docs serves the interactive reference page', async () => {
    const res = await t.app.inject({ url: '/docs/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
  })
})
