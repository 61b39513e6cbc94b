import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { etagOf, sendCacheable } from '../../src/lib/etag.js'

describe('etagOf', () => {
  it('is the 32-bit FNV-1a hash and the length, in base 36, quoted (a strong ETag)', () => {
    // FNV-1a of "" is the offset basis 0x811c9dc5; of "a" it is 0xe40c292c (published vectors).
    expect(etagOf('')).toBe(`"${(0x811c9dc5).toString(36)}-0"`)
    expect(etagOf('a')).toBe(`"${(0xe40c292c).toString(36)}-1"`)
    expect(etagOf('foobar')).toBe(`"${(0xbf9cf968).toString(36)}-6"`)
  })

  it('changes with any character and with the length', () => {
    const tags = new Set(['quote', 'quotf', 'Quote', 'quote ', 'quot'].map(etagOf))
    expect(tags.size).toBe(5)
    expect(etagOf('x'.repeat(36))).toMatch(/-10"$/)
  })
})

describe('sendCacheable', () => {
  const app = Fastify()
  const BODY = 'a quote\n'
  const TAG = etagOf(BODY)
  app.get('/', (request, reply) => sendCacheable(request, reply, TAG, BODY))
  beforeAll(() => app.ready())
  afterAll(() => app.close())

  const get = (ifNoneMatch?: string) =>
    app.inject({
      url: '/',
      headers: ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch },
    })

  it('sends the body with its ETag when the client has no copy', async () => {
    const response = await get()
    expect(response.statusCode).toBe(200)
    expect(response.headers.etag).toBe(TAG)
    expect(response.body).toBe(BODY)
  })

  it.each([
    ['the same tag', TAG],
    ['*', '*'],
    ['the tag in a list', `"other", ${TAG}`],
    ['the weak form of the tag', `W/${TAG}`],
    ['the weak form in a list', `"other",W/${TAG} , "more"`],
  ])('answers 304, with the ETag and no body, for If-None-Match: %s', async (_, header) => {
    const response = await get(header)
    expect(response.statusCode).toBe(304)
    expect(response.headers.etag).toBe(TAG)
    expect(response.body).toBe('')
  })

  it.each([
    ['another tag', '"other"'],
    ['other tags in a list', '"a", "b"'],
    ['the tag without its quotes', TAG.slice(1, -1)],
    ['a prefix of the tag', TAG.slice(0, -2)],
    ['an empty header', ''],
  ])('sends the body again for If-None-Match: %s', async (_, header) => {
    const response = await get(header)
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(BODY)
  })
})
