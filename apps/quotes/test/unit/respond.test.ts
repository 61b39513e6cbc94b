import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { etagOf } from '../../src/lib/etag.js'
import {
  JSON_TYPE,
  sendBody,
  sendNegotiated,
  sendPage,
  sendQuote,
  shareMeta,
  TEXT_TYPE,
} from '../../src/lib/respond.js'
import { type StoredQuote, storedQuote } from '../../src/lib/stored-quote.js'
import { ACCEPT, bareApp, type RenderedView } from './bare-app.js'

const HTML_TYPE = 'text/html; charset=utf-8'
const QUOTE = storedQuote(7, 'Know thyself.\n\nAnd then some.', 'Socrates', 'socrates', ['wisdom'])

describe('response types', () => {
  it('are UTF-8 JSON and UTF-8 plain text', () => {
    expect(JSON_TYPE).toBe('application/json; charset=utf-8')
    expect(TEXT_TYPE).toBe('text/plain; charset=utf-8')
  })
})

describe('sendBody and sendPage', () => {
  const app = bareApp()
  app.get<{ Querystring: { etag?: string } }>('/body', (request, reply) =>
    sendBody(request, reply, 'plain body', request.query.etag),
  )
  app.get<{ Querystring: { cacheable?: string } }>('/page', (request, reply) =>
    sendPage(request, reply, 'about', request.query.cacheable === 'yes', { title: 'About' }),
  )
  beforeAll(() => app.ready())
  afterAll(() => app.close())

  it('sends a body without an ETag when none is given, whatever the client holds', async () => {
    const response = await app.inject({ url: '/body', headers: { 'if-none-match': '*' } })
    expect(response.statusCode).toBe(200)
    expect(response.headers.etag).toBeUndefined()
    expect(response.body).toBe('plain body')
  })

  it('sends a body with its ETag, and 304 to a client holding it', async () => {
    const url = '/body?etag=%22v1%22'
    const fresh = await app.inject({ url })
    expect(fresh.headers.etag).toBe('"v1"')
    expect(fresh.body).toBe('plain body')
    const held = await app.inject({ url, headers: { 'if-none-match': '"v1"' } })
    expect(held.statusCode).toBe(304)
  })

  it('renders a cacheable page as HTML with the ETag of its markup', async () => {
    const response = await app.inject({ url: '/page?cacheable=yes' })
    expect(response.headers['content-type']).toBe(HTML_TYPE)
    expect(JSON.parse(response.body)).toEqual({ view: 'about', data: { title: 'About' } })
    expect(response.headers.etag).toBe(etagOf(response.body))
  })

  it('renders a page that is not cacheable without an ETag', async () => {
    const response = await app.inject({ url: '/page' })
    expect(response.headers['content-type']).toBe(HTML_TYPE)
    expect(response.headers.etag).toBeUndefined()
  })
})

describe('sendNegotiated', () => {
  const app = bareApp()
  const built: string[] = []
  app.get('/resource', (request, reply) =>
    sendNegotiated(request, reply, {
      view: 'resource',
      data: () => {
        built.push('data')
        return { title: 'A resource' }
      },
      json: () => {
        built.push('json')
        return { name: 'resource', size: 2 }
      },
      text: () => {
        built.push('text')
        return 'a resource\n'
      },
    }),
  )
  beforeAll(() => app.ready())
  afterAll(() => app.close())

  const get = async (accept: string) => {
    built.length = 0
    const response = await app.inject({ url: '/resource', headers: { accept } })
    return { response, built: [...built] }
  }

  it('sends JSON, typed and tagged, building only the JSON', async () => {
    const { response, built } = await get(ACCEPT.json)
    expect(built).toEqual(['json'])
    expect(response.headers['content-type']).toBe(JSON_TYPE)
    expect(response.headers.vary).toBe('Accept')
    expect(response.body).toBe('{"name":"resource","size":2}')
    expect(response.headers.etag).toBe(etagOf(response.body))
  })

  it('sends plain text, typed and tagged, building only the text', async () => {
    const { response, built } = await get(ACCEPT.text)
    expect(built).toEqual(['text'])
    expect(response.headers['content-type']).toBe(TEXT_TYPE)
    expect(response.headers.vary).toBe('Accept')
    expect(response.body).toBe('a resource\n')
    expect(response.headers.etag).toBe(etagOf('a resource\n'))
  })

  it('renders the view for a browser, cacheable, building only its data', async () => {
    const { response, built } = await get(ACCEPT.html)
    expect(built).toEqual(['data'])
    expect(response.headers['content-type']).toBe(HTML_TYPE)
    expect(response.headers.vary).toBe('Accept')
    expect(JSON.parse(response.body)).toEqual({ view: 'resource', data: { title: 'A resource' } })
    expect(response.headers.etag).toBe(etagOf(response.body))
  })

  it('answers 304 to a client holding the current representation', async () => {
    const { response } = await get(ACCEPT.json)
    const again = await app.inject({
      url: '/resource',
      headers: { accept: ACCEPT.json, 'if-none-match': response.headers.etag as string },
    })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
  })
})

/** The share tags as `key: content`, for reading. */
const metaOf = async (app: FastifyInstance, url = '/meta') =>
  Object.fromEntries(
    ((await app.inject({ url })).json() as { key: string; attr: string; content: string }[]).map(
      ({ attr, key, content }) => [`${attr} ${key}`, content],
    ),
  )

describe('shareMeta', () => {
  const own = bareApp()
  const published = bareApp('https://quotes.example')
  const long = storedQuote(8, `${'x'.repeat(199)}yz`, 'Anon', 'anon')
  for (const app of [own, published]) {
    app.get('/meta', (request) => shareMeta(request, QUOTE))
    app.get('/long', (request) => shareMeta(request, long))
    app.get('/exact', (request) => shareMeta(request, storedQuote(9, 'y'.repeat(200), 'Anon')))
  }
  beforeAll(() => Promise.all([own.ready(), published.ready()]))
  afterAll(() => Promise.all([own.close(), published.close()]))

  it('describes the quote page and its share card for Open Graph and Twitter', async () => {
    expect(await metaOf(published)).toEqual({
      'property og:type': 'article',
      'property og:site_name': 'Quotes',
      'property og:title': 'Socrates on Quotes',
      'property og:description': QUOTE.quote,
      'property og:url': 'https://quotes.example/q/q7',
      'property og:image': 'https://quotes.example/q/q7.png',
      'property og:image:type': 'image/png',
      'property og:image:width': '1200',
      'property og:image:height': '630',
      'property og:image:alt': `“${QUOTE.quote}” — Socrates`,
      'name twitter:card': 'summary_large_image',
      'name twitter:title': 'Socrates on Quotes',
      'name twitter:description': QUOTE.quote,
      'name twitter:image': 'https://quotes.example/q/q7.png',
    })
  })

  it("points at the request's own origin without a public URL", async () => {
    const meta = await metaOf(own)
    expect(meta['property og:url']).toBe('http://localhost:80/q/q7')
    expect(meta['name twitter:image']).toBe('http://localhost:80/q/q7.png')
  })

  it('cuts descriptions over 200 characters to 197 and an ellipsis', async () => {
    const meta = await metaOf(own, '/long')
    expect(meta['property og:description']).toBe(`${'x'.repeat(197)}…`)
    expect(meta['name twitter:description']).toBe(`${'x'.repeat(197)}…`)
    expect(meta['property og:image:alt']).toBe(`“${'x'.repeat(197)}…” — Anon`)
    expect((await metaOf(own, '/exact'))['property og:description']).toBe('y'.repeat(200))
  })
})

describe('sendQuote', () => {
  const app = bareApp('https://quotes.example')
  // Titles keep 60 characters of the quote, or 57 and an ellipsis.
  const quotes: Record<string, StoredQuote> = {
    short: QUOTE,
    sixty: storedQuote(10, 'w'.repeat(60), 'Anon'),
    longer: storedQuote(11, `${'w'.repeat(57)}xyz!`, 'Anon'),
  }
  type Query = { cacheable?: string; custom?: string; quote?: string }
  app.get<{ Querystring: Query }>('/quote', (request, reply) =>
    sendQuote(
      request,
      reply,
      quotes[request.query.quote ?? 'short'] as StoredQuote,
      request.query.cacheable === 'yes',
      request.query.custom === 'yes'
        ? {
            heading: 'Quote of the day',
            headingVisible: true,
            anotherHref: '/?tag=wisdom',
            json: '{"day":"2026-11-24"}',
          }
        : {},
    ),
  )
  beforeAll(() => app.ready())
  afterAll(() => app.close())

  const get = (accept: string, query = '') =>
    app.inject({ url: `/quote${query}`, headers: { accept } })

  it("sends the quote's own JSON and text, with their precomputed ETags when cacheable", async () => {
    const json = await get(ACCEPT.json, '?cacheable=yes')
    expect(json.headers['content-type']).toBe(JSON_TYPE)
    expect(json.headers.vary).toBe('Accept')
    expect(json.body).toBe(QUOTE.json)
    expect(json.headers.etag).toBe(QUOTE.jsonEtag)
    const text = await get(ACCEPT.text, '?cacheable=yes')
    expect(text.headers['content-type']).toBe(TEXT_TYPE)
    expect(text.headers.vary).toBe('Accept')
    expect(text.body).toBe(QUOTE.text)
    expect(text.headers.etag).toBe(QUOTE.textEtag)
  })

  it('sends no ETag when the answer is not cacheable (a random quote)', async () => {
    for (const accept of Object.values(ACCEPT)) {
      const response = await get(accept)
      expect(response.statusCode).toBe(200)
      expect(response.headers.etag).toBeUndefined()
    }
  })

  it('sends a JSON body given instead of the quote, tagged by its own hash', async () => {
    const response = await get(ACCEPT.json, '?cacheable=yes&custom=yes')
    expect(response.body).toBe('{"day":"2026-11-24"}')
    expect(response.headers.etag).toBe(etagOf('{"day":"2026-11-24"}'))
  })

  it('renders the quote page with its defaults, share tags and paragraphs', async () => {
    const response = await get(ACCEPT.html, '?cacheable=yes')
    expect(response.headers['content-type']).toBe(HTML_TYPE)
    expect(response.headers.etag).toBe(etagOf(response.body))
    const { view, data } = JSON.parse(response.body) as RenderedView
    expect(view).toBe('quote')
    expect(data).toEqual({
      title: `Socrates: “${QUOTE.quote}”`,
      description: `${QUOTE.quote} — Socrates`,
      heading: 'A quote by Socrates',
      headingVisible: false,
      anotherHref: '/',
      meta: expect.arrayContaining([
        { attr: 'property', key: 'og:url', content: 'https://quotes.example/q/q7' },
      ]),
      quote: JSON.parse(JSON.stringify(QUOTE)),
      paragraphs: ['Know thyself.', 'And then some.'],
    })
    expect(data.meta).toHaveLength(14)
  })

  it('keeps the first 60 characters of the quote in the title', async () => {
    const title = async (quote: string) =>
      (JSON.parse((await get(ACCEPT.html, `?quote=${quote}`)).body) as RenderedView).data.title
    expect(await title('sixty')).toBe(`Anon: “${'w'.repeat(60)}”`)
    expect(await title('longer')).toBe(`Anon: “${'w'.repeat(57)}…”`)
  })

  it('renders the heading and "another" link it is given', async () => {
    const { data } = JSON.parse((await get(ACCEPT.html, '?custom=yes')).body) as RenderedView
    expect(data).toMatchObject({
      heading: 'Quote of the day',
      headingVisible: true,
      anotherHref: '/?tag=wisdom',
    })
  })
})
