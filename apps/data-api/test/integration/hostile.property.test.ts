import { FEATURES } from '@repo/contracts'
import {
  hostileHeaders,
  hostileJson,
  hostileMethod,
  hostileText,
  sendRaw,
} from '@repo/service-kit/testing'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey } from '../../src/lib/api-key.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

// Thousands of generated hostile requests over real HTTP: none may get a 5xx (or no answer), and
// a refused form stores nothing.

let t: TestApp
let port: number
let key: string
let browser: DashboardClient

beforeAll(async () => {
  t = await createTestApp('hostile', {
    env: { AUTH_RATE_LIMIT_PER_ADDRESS: '100000', API_UNAUTHORIZED_PER_ADDRESS: '100000' },
  })
  port = Number(new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port)
  browser = new DashboardClient(t.app)
  await browser.signUp(uniqueEmail('hostile'), 'ENTERPRISE')
  key = await browser.createKey()
})
afterAll(async () => {
  await t?.close()
})

const authorization = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('Bearer', 'Basic abc', 'bearer  x'),
  fc.constant('VALID'),
  fc.constant('MADE_UP'),
  hostileText.map((text) => `Bearer ${text.replace(/[\r\n]/g, '')}`),
)

const bodyOf = fc.oneof(
  hostileJson.map((json) => (typeof json === 'string' ? json : JSON.stringify(json))),
  fc
    .record({ data: hostileText, options: fc.record({ feature: hostileText }) })
    .map((body) => JSON.stringify(body)),
  fc.constantFrom(...FEATURES).chain((feature) =>
    fc
      .record({
        data: hostileText,
        options: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 })),
      })
      .map(({ data, options }) => JSON.stringify({ data, options: { ...options, feature } })),
  ),
)

describe('hostile requests to data-api', () => {
  it('never answer 5xx on the API, whatever the key, headers and body', async () => {
    const seen = new Set<number>()
    await fc.assert(
      fc.asyncProperty(
        hostileMethod,
        fc.constantFrom('/api/v1/data', '/api/v1/data/', '/api/v1', '/api/v1/other'),
        authorization,
        hostileHeaders(),
        fc.option(bodyOf, { nil: undefined }),
        async (method, path, auth, headers, body) => {
          const header =
            auth === 'VALID'
              ? `Bearer ${key}`
              : auth === 'MADE_UP'
                ? `Bearer ${generateApiKey().key}`
                : auth
          const status = await sendRaw(port, {
            method,
            path,
            headers: { ...headers, ...(header === undefined ? {} : { authorization: header }) },
            ...(body === undefined ? {} : { body }),
          })
          seen.add(status)
          expect(status, `${method} ${path} ${auth} ${body?.slice(0, 80)}`).toBeGreaterThanOrEqual(
            200,
          )
          expect(status, `${method} ${path} ${auth} ${body?.slice(0, 80)}`).toBeLessThan(500)
        },
      ),
      { numRuns: 1_500 },
    )
    expect([...seen]).toEqual(expect.arrayContaining([200, 400, 401, 404, 405, 415]))
  }, 180_000)

  it('refuse options built to be slow or deep to check with a short 400', async () => {
    /** POSTs `options` (or their JSON, already written) with a short text. */
    const post = (options: Record<string, unknown> | string) =>
      fetch(`http://127.0.0.1:${port}/api/v1/data`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: `{"data":"Mail a@b.example.","options":${typeof options === 'string' ? options : JSON.stringify(options)}}`,
      })
    // 20,000 equal kinds: explaining that they are not distinct took seconds of the event loop
    // (200,000: four minutes); refused from its length.
    const kinds = await post({ feature: 'redact', kinds: Array(20_000).fill('ips') })
    expect(kinds.status).toBe(400)
    expect((await kinds.json()).detail).toMatch(/^Option "kinds" of the redact feature must be/)
    // A list 100,000 deep parses, and overflowed the stack in the check (a 500).
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    const nested = await post(`{"feature":"redact","mask":${deep}}`)
    expect(nested.status).toBe(400)
    expect((await nested.json()).detail).toBe(
      'Option "mask" of the redact feature must be a single character other than a space; got a value nested too deeply to show.',
    )
    for (const body of [
      `{"feature":${deep}}`,
      `{"feature":"stats","x":${deep}}`,
      `{"feature":"keywords","limit":{"a":${deep}}}`,
    ]) {
      expect((await post(body)).status, body.slice(0, 40)).toBe(400)
    }
    for (const raw of [deep, `{"data":${deep},"options":{"feature":"stats"}}`]) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/data`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: raw,
      })
      expect(res.status, raw.slice(0, 40)).toBe(400)
    }
    const names: Record<string, unknown> = { feature: 'redact' }
    for (let i = 0; i < 50_000; i++) names[`n${i}`] = i
    const unknown = await post(names)
    expect(unknown.status).toBe(400)
    expect((await unknown.text()).length).toBeLessThan(1_000)
  })

  it('never answer 5xx on the pages, and store nothing for a refused form', async () => {
    const count = async () =>
      (
        await t.app.pg.query(
          'SELECT (SELECT count(*) FROM users)::int + (SELECT count(*) FROM api_keys)::int AS n',
        )
      ).rows[0].n as number
    const formField = fc.oneof(hostileText, fc.constantFrom('FREE', 'PRO', 'x@example.com'))
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/signup', '/login', '/dashboard/keys', '/dashboard/plan', '/logout'),
        fc.boolean(),
        fc.array(
          fc.tuple(
            fc.constantFrom('email', 'password', 'plan', 'name', '_csrf', 'other'),
            formField,
          ),
          { maxLength: 5 },
        ),
        fc.boolean(),
        async (anyPath, signedIn, pairs, raw) => {
          // The signed-in browser stays signed in, so the account forms keep being reached.
          const path = signedIn && anyPath === '/logout' ? '/dashboard/keys' : anyPath
          await browser.get('/dashboard')
          const fields = pairs
            .map(([name, value]) =>
              raw
                ? `${name}=${value}`
                : `${name}=${encodeURIComponent(value.isWellFormed() ? value : '')}`,
            )
            .join('&')
          const body = signedIn ? `_csrf=${encodeURIComponent(browser.csrf)}&${fields}` : fields
          const before = await count()
          const status = await sendRaw(port, {
            method: 'POST',
            path,
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              accept: 'text/html',
              ...(signedIn ? { cookie: browser.cookie } : {}),
            },
            body,
          })
          expect(status, `${path} ${body.slice(0, 120)}`).toBeGreaterThanOrEqual(200)
          expect(status, `${path} ${body.slice(0, 120)}`).toBeLessThan(500)
          if (status >= 400) expect(await count(), `${path} ${body.slice(0, 120)}`).toBe(before)
        },
      ),
      { numRuns: 600 },
    )
  }, 180_000)
})
