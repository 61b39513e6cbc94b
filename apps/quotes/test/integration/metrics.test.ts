import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

// The platform's metrics, scraped over real HTTP after real requests.
let t: TestApp
let base = ''

beforeAll(async () => {
  t = await createTestApp('metrics')
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(async () => {
  await t?.close()
})

const get = (path: string) =>
  fetch(`${base}${path}`, { headers: { accept: 'application/json' } }).then(async (res) => ({
    status: res.status,
    text: await res.text(),
  }))

/** The value of one series of the exposition text, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('platform metrics', () => {
  it('build_info: version, commit and Node.js version', async () => {
    const { text } = await get('/metrics')
    const version = (await import('../../package.json', { with: { type: 'json' } })).default.version
    const commit = process.env.GIT_COMMIT || 'unknown'
    expect(
      sample(
        text,
        `build_info{version="${version}",commit="${commit}",node_version="${process.version}"}`,
      ),
    ).toBe(1)
  })

  it('Postgres pool state and Redis connection state', async () => {
    await get('/api/q/q1')
    const { text } = await get('/metrics')
    expect(sample(text, 'pg_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'pg_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0)
    expect(sample(text, 'pg_pool_connections{state="waiting"}')).toBe(0)
    expect(sample(text, 'redis_connection_up')).toBe(1)
    expect(sample(text, 'dependency_up{dependency="redis"}')).toBe(1)
  })

  it('problem responses by code, every code exported from the start', async () => {
    const before = await get('/metrics')
    expect(sample(before.text, 'problem_responses_total{code="QUOTA_EXCEEDED"}')).toBe(0)
    const notFound = sample(before.text, 'problem_responses_total{code="NOT_FOUND"}') ?? 0
    const invalid = sample(before.text, 'problem_responses_total{code="INVALID_REQUEST"}') ?? 0
    expect((await get('/api/q/q99999999')).status).toBe(404)
    expect((await get('/no-such-page')).status).toBe(404)
    expect((await get('/api/search?page=0')).status).toBe(400)
    const after = await get('/metrics')
    expect(sample(after.text, 'problem_responses_total{code="NOT_FOUND"}')).toBe(notFound + 2)
    expect(sample(after.text, 'problem_responses_total{code="INVALID_REQUEST"}')).toBe(invalid + 1)
  })

  it('requests no route matched share the __unmatched route label', async () => {
    const paths = ['/wp-login.php', '/.env', '/a/b/c/d']
    for (const path of paths) expect((await get(path)).status).toBe(404)
    const { text } = await get('/metrics')
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="__unmatched",status_code="404"}',
      ),
    ).toBeGreaterThanOrEqual(paths.length)
    for (const path of paths) expect(text).not.toContain(`route="${path}"`)
  })
})
