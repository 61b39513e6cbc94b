import {
  AuthorResponse,
  AuthorsResponse,
  Problem,
  QuoteResponse,
  TagsResponse,
} from '@repo/contracts'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { JSON_ACCEPT, useTestApp } from '../support/test-app.js'

const t = useTestApp('authors_tags')

const json = async (url: string) => {
  const res = await t.app.inject({ url, headers: JSON_ACCEPT })
  return { res, body: res.json() }
}

describe('authors', () => {
  it('lists authors by name with slugs and counts, paged, with Link headers', async () => {
    const { res, body } = await json('/api/authors?limit=5&page=2')
    expect(res.statusCode).toBe(200)
    expect(Value.Check(AuthorsResponse, body)).toBe(true)
    expect(body.results).toHaveLength(5)
    expect(body.total_authors).toBeGreaterThan(1000)
    const names = body.results.map((a: { name: string }) => a.name)
    expect([...names].sort((a, b) => a.localeCompare(b, 'en'))).toEqual(names)
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+/)
    expect(res.headers.etag).toBeDefined()
    const link = String(res.headers.link)
    expect(link).toContain('</api/authors?limit=5&page=1>; rel="first"')
    expect(link).toContain('</api/authors?limit=5&page=1>; rel="prev"')
    expect(link).toContain('</api/authors?limit=5&page=3>; rel="next"')
    expect(link).toMatch(/<\/api\/authors\?limit=5&page=\d+>; rel="last"$/)
  })

  it('filters by term (accents ignored) and sorts by count', async () => {
    const { body } = await json('/api/authors?term=anais')
    expect(body.results.map((a: { name: string }) => a.name)).toContain('Anaïs Nin')
    const byCount = (await json('/api/authors?sort=count&limit=3')).body
    expect(byCount.sort).toBe('count')
    expect(byCount.results[0]).toMatchObject({ name: 'Larry Wall', slug: 'larry-wall' })
    const counts = byCount.results.map((a: { quote_count: number }) => a.quote_count)
    expect([...counts].sort((a, b) => b - a)).toEqual(counts)
  })

  it('gives colliding names distinct, stable ASCII slugs', async () => {
    const { body } = await json('/api/authors?term=chuang')
    const slugs = body.results.map((a: { slug: string }) => a.slug).sort()
    expect(slugs).toEqual(['chuang-tzu', 'chuang-tzu-2'])
    for (const slug of slugs) {
      const page = await json(`/api/authors/${slug}`)
      expect(page.res.statusCode).toBe(200)
      expect(page.body.results.every((q: { author: string }) => /^Chuang/.test(q.author))).toBe(
        true,
      )
    }
  })

  it("serves an author's quotes in id order, paged, in every format", async () => {
    const { res, body } = await json('/api/authors/albert-einstein?limit=30&page=2')
    expect(res.statusCode).toBe(200)
    expect(Value.Check(AuthorResponse, body)).toBe(true)
    expect(body.author).toEqual({
      slug: 'albert-einstein',
      name: 'Albert Einstein',
      quote_count: 73,
    })
    expect(body).toMatchObject({ current_page: 2, total_pages: 3, total_quotes: 73 })
    const nums = body.results.map((q: { id: string }) => Number(q.id.slice(1)))
    expect([...nums].sort((a, b) => a - b)).toEqual(nums)
    expect(String(res.headers.link)).toContain('rel="next"')
    const text = await t.app.inject({ url: '/api/authors/albert-einstein?limit=3' })
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(text.body.trim().split('\n')).toHaveLength(3)
    const html = await t.app.inject({
      url: '/authors/albert-einstein',
      headers: { accept: 'text/html' },
    })
    expect(html.body).toContain('<h1>Albert Einstein</h1>')
  })

  it('answers 404 for an unknown slug and 400 for bad paging, in the negotiated format', async () => {
    const missing = await json('/api/authors/nobody-at-all')
    expect(missing.res.statusCode).toBe(404)
    expect(Value.Check(Problem, missing.body)).toBe(true)
    expect(missing.res.headers['cache-control']).toBe('no-store')
    const text = await t.app.inject({ url: '/api/authors/nobody-at-all' })
    expect(text.body).toBe('No author has the slug nobody-at-all.\n')
    for (const query of ['page=0', 'page=x', 'limit=-1', 'sort=age', 'page=1.5']) {
      expect((await json(`/api/authors?${query}`)).res.statusCode).toBe(400)
    }
  })

  it('links author names on quote pages to the author page', async () => {
    const page = await t.app.inject({ url: '/q/q1', headers: { accept: 'text/html' } })
    expect(page.body).toContain('<a href="/authors/lord-byron">Lord Byron</a>')
  })
})

describe('tags', () => {
  it('lists tags with counts, most used first', async () => {
    const { res, body } = await json('/api/tags')
    expect(Value.Check(TagsResponse, body)).toBe(true)
    expect(body.results[0]).toEqual({
      slug: 'famous-quotes',
      name: 'Famous Quotes',
      quote_count: 1090,
    })
    expect(res.headers.etag).toBeDefined()
    expect(res.headers.vary).toBe('Accept')
    const text = await t.app.inject({ url: '/api/tags' })
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(text.body.split('\n')[0]).toBe('famous-quotes\t1090')
    const page = await t.app.inject({ url: '/tags', headers: { accept: 'text/html' } })
    expect(page.headers.etag).toBeDefined()
    expect(page.body).toContain('<a href="/?tag=famous-quotes">Famous Quotes</a>')
  })

  it('puts tags on quotes in JSON and HTML', async () => {
    const tagged = (await json('/api?tag=self-help')).body
    expect(Value.Check(QuoteResponse, tagged)).toBe(true)
    expect(tagged.tags).toContain('self-help')
    const page = await t.app.inject({ url: `/q/${tagged.id}`, headers: { accept: 'text/html' } })
    expect(page.body).toContain('<a href="/?tag=self-help" rel="tag">self-help</a>')
  })
})

describe('filtered random quote', () => {
  it('stays within the filters and is uniform over the matches', async () => {
    const seen = new Map<string, number>()
    for (let i = 0; i < 120; i += 1) {
      const { res, body } = await json('/api?author=heraclitus')
      expect(res.statusCode).toBe(200)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(body.author).toBe('Heraclitus')
      seen.set(body.id, (seen.get(body.id) ?? 0) + 1)
    }
    // 4 quotes, 120 draws: each drawn 30 times on average; below 10 is a 1-in-10^6 event.
    expect(seen.size).toBe(4)
    for (const count of seen.values()) expect(count).toBeGreaterThanOrEqual(10)
  })

  it('combines author, tag and length', async () => {
    for (let i = 0; i < 20; i += 1) {
      const { body } = await json(
        '/api?author=albert-einstein&tag=science&minLength=50&maxLength=150',
      )
      expect(body.author).toBe('Albert Einstein')
      expect(body.tags).toContain('science')
      expect(body.quote.length).toBeGreaterThanOrEqual(50)
      expect(body.quote.length).toBeLessThanOrEqual(150)
    }
    for (let i = 0; i < 20; i += 1) {
      const { body } = await json('/api?maxLength=20')
      expect(body.quote.length).toBeLessThanOrEqual(20)
    }
  })

  it('answers 404 in the negotiated format when nothing matches', async () => {
    for (const query of [
      'author=larry-wall&tag=famous-quotes',
      'author=no-one',
      'tag=nope',
      'minLength=5000',
    ]) {
      const { res, body } = await json(`/api?${query}`)
      expect(res.statusCode).toBe(404)
      expect(body.code).toBe('NOT_FOUND')
      expect(res.headers['cache-control']).toBe('no-store')
    }
    const text = await t.app.inject({ url: '/api?tag=nope' })
    expect(text.body).toBe('No quote matches: tag "nope".\n')
    const html = await t.app.inject({ url: '/?tag=nope', headers: { accept: 'text/html' } })
    expect(html.statusCode).toBe(404)
    expect(html.headers['content-type']).toMatch(/^text\/html/)
  })

  it('refuses bad lengths with 400', async () => {
    for (const query of [
      'minLength=abc',
      'maxLength=-1',
      'minLength=10&maxLength=5',
      'minLength=1.5',
    ]) {
      expect((await json(`/api?${query}`)).res.statusCode).toBe(400)
    }
  })

  it('keeps the filters in the page\'s "Another one" link', async () => {
    const page = await t.app.inject({
      url: '/?author=heraclitus',
      headers: { accept: 'text/html' },
    })
    expect(page.body).toContain('<a class="button" href="/?author=heraclitus">Another one</a>')
  })
})
