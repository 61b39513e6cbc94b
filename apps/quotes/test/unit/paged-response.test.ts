import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { etagOf } from '../../src/lib/etag.js'
import { sendPaged } from '../../src/lib/paged-response.js'
import { pageInfo } from '../../src/lib/pagination.js'
import { JSON_TYPE, TEXT_TYPE } from '../../src/lib/respond.js'
import { ACCEPT, bareApp, type RenderedView } from './bare-app.js'

/** 45 names, 20 a page: /names?page=N lists them, like /api/authors does. */
const NAMES = Array.from({ length: 45 }, (_, i) => `name ${i + 1}`)

describe('sendPaged', () => {
  const app = bareApp()
  app.get<{ Querystring: { page?: string; q?: string } }>('/names', (request, reply) => {
    const info = pageInfo(NAMES.length, Number(request.query.page ?? 1), 20)
    const names = NAMES.slice(info.offset, info.offset + info.limit)
    return sendPaged(request, reply, 'public, max-age=60', {
      info,
      json: () => ({ names, page: info.current_page }),
      text: () => `${names.join('\n')}\n`,
      view: 'names',
      title: 'Names',
      page: () => ({ names }),
    })
  })
  beforeAll(() => app.ready())
  afterAll(() => app.close())

  const get = (url: string, accept: string) => app.inject({ url, headers: { accept } })

  it('sends a page as JSON, cacheable, linked to its neighbours', async () => {
    const response = await get('/names?q=a%20b&page=2', ACCEPT.json)
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe(JSON_TYPE)
    expect(response.headers['cache-control']).toBe('public, max-age=60')
    expect(response.headers.vary).toBe('Accept')
    expect(response.headers.etag).toBe(etagOf(response.body))
    expect(response.json()).toEqual({ names: NAMES.slice(20, 40), page: 2 })
    expect(response.headers.link).toBe(
      '</names?q=a+b&page=1>; rel="first", </names?q=a+b&page=1>; rel="prev", ' +
        '</names?q=a+b&page=3>; rel="next", </names?q=a+b&page=3>; rel="last"',
    )
  })

  it('sends a page as plain text with the same headers', async () => {
    const response = await get('/names?page=3', ACCEPT.text)
    expect(response.headers['content-type']).toBe(TEXT_TYPE)
    expect(response.headers['cache-control']).toBe('public, max-age=60')
    expect(response.body).toBe(`${NAMES.slice(40).join('\n')}\n`)
    expect(response.headers.link).toBe(
      '</names?page=1>; rel="first", </names?page=2>; rel="prev", </names?page=3>; rel="last"',
    )
  })

  it('renders a page for a browser with its title, its items and its navigation', async () => {
    const response = await get('/names?page=1', ACCEPT.html)
    expect(response.headers['cache-control']).toBe('public, max-age=60')
    expect(response.headers.link).toContain('</names?page=2>; rel="next"')
    expect(JSON.parse(response.body) as RenderedView).toEqual({
      view: 'names',
      data: {
        title: 'Names',
        page: { names: NAMES.slice(0, 20) },
        links: { next: '/names?page=2', last: '/names?page=3' },
      },
    })
  })

  it('answers 304 with the headers when the client holds the page', async () => {
    const first = await get('/names?page=2', ACCEPT.json)
    const again = await app.inject({
      url: '/names?page=2',
      headers: { accept: ACCEPT.json, 'if-none-match': first.headers.etag as string },
    })
    expect(again.statusCode).toBe(304)
    expect(again.headers['cache-control']).toBe('public, max-age=60')
    expect(again.headers.link).toBe(first.headers.link)
  })
})
