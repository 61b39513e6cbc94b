import { createServiceTestApp, type ServiceTestApp } from '@repo/service-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import app from '../../src/app.js'
import { loadQuotesConfig, type QuotesConfig } from '../../src/config.js'
import { prepareSmallDatabase } from '../support/small-corpus.js'

// The real app on SMALL_SEED: lengths q1 30, q2 71, q3 13, q5 30, q6 12, q9 14; Paul wrote q1
// and q9; love: q1, q5; wisdom: q2, q3, q5; philosophy: q2.
let t: ServiceTestApp<QuotesConfig>

beforeAll(async () => {
  t = await createServiceTestApp({
    label: 'quotes_random_filter',
    loadConfig: loadQuotesConfig,
    prepareDatabase: prepareSmallDatabase,
    app,
  })
})
afterAll(async () => {
  await t?.close()
})

async function get(query: string, accept = 'application/json') {
  const res = await t.app.inject({ url: `/api?${query}`, headers: { accept } })
  return { status: res.statusCode, body: res.body, json: () => res.json() }
}

/** The ids drawn by `draws` requests. */
async function drawn(query: string, draws = 24): Promise<string[]> {
  const ids = new Set<string>()
  for (let i = 0; i < draws; i += 1) {
    const res = await get(query)
    expect(res.status, query).toBe(200)
    ids.add(res.json().id)
  }
  return [...ids].sort()
}

describe('GET /api with filters', () => {
  it('draws among the quotes matching every filter given', async () => {
    expect(await drawn('author=paul')).toEqual(['q1', 'q9'])
    expect(await drawn('tag=love')).toEqual(['q1', 'q5'])
    expect(await drawn('author=paul&tag=love', 6)).toEqual(['q1'])
    expect(await drawn('minLength=13&maxLength=14')).toEqual(['q3', 'q9'])
    expect(await drawn('minLength=31', 6)).toEqual(['q2'])
    expect(await drawn('maxLength=12', 6)).toEqual(['q6'])
    expect(await drawn('tag=wisdom&maxLength=30')).toEqual(['q3', 'q5'])
  })

  it('says which filters nothing matches (404)', async () => {
    const cases = [
      ['author=nobody', 'author "nobody"'],
      ['author=paul&tag=nope', 'author "paul", tag "nope"'],
      [
        'tag=philosophy&minLength=0&maxLength=70',
        'tag "philosophy", at least 0 characters, at most 70 characters',
      ],
      ['author=hegel&tag=love', 'author "hegel", tag "love"'],
    ]
    for (const [query, words] of cases) {
      const res = await get(query as string, 'text/plain')
      expect(res.status, query).toBe(404)
      expect(res.body).toBe(`No quote matches: ${words}.\n`)
    }
  })

  it('takes a length range of one length, and refuses one upside down (400)', async () => {
    expect(await drawn('minLength=30&maxLength=30')).toEqual(['q1', 'q5'])
    const res = await get('minLength=31&maxLength=30', 'text/plain')
    expect(res.status).toBe(400)
    expect(res.body).toBe('minLength must not be greater than maxLength.\n')
  })

  it('refuses a slug with control characters or broken encoding (400)', async () => {
    for (const query of ['author=pa%00ul', 'tag=lo%0Ave', 'author=%E0%A4%A']) {
      expect((await get(query)).status, query).toBe(400)
    }
  })

  it('answers a new draw every time: no ETag to revalidate', async () => {
    const res = await t.app.inject({
      url: '/api?author=paul',
      headers: { accept: 'application/json' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers.etag).toBeUndefined()
    expect(res.headers['cache-control']).toBe('no-store')
  })

  it('keeps the filters in the page’s “Another one” link', async () => {
    const res = await t.app.inject({
      url: '/?tag=love&author=paul&minLength=1',
      headers: { accept: 'text/html' },
    })
    expect(res.body).toContain('href="/?tag=love&amp;author=paul&amp;minLength=1">Another one</a>')
    const plain = await t.app.inject({ url: '/', headers: { accept: 'text/html' } })
    expect(plain.body).toContain('href="/">Another one</a>')
  })
})
