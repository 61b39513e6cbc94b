import { describe, expect, it } from 'vitest'
import { etagOf } from '../../src/lib/etag.js'
import { parseQuoteId, storedQuote } from '../../src/lib/stored-quote.js'

describe('storedQuote representations', () => {
  const q = storedQuote(7, 'To be,\nor not.', 'W. S.')

  it('keeps the plain-text body as the quote and one newline', () => {
    expect(q.text).toBe('To be,\nor not.\n')
  })

  it('tags each body with the ETag of exactly that body', () => {
    expect(q.jsonEtag).toBe(etagOf(q.json))
    expect(q.textEtag).toBe(etagOf(q.text))
    expect(q.jsonEtag).not.toBe(q.textEtag)
  })

  it('joins every run of line breaks and the spaces around them into one space', () => {
    expect(storedQuote(1, 'a \n\n\n b\rc', 'x').line).toBe('a b c')
  })
})

describe('parseQuoteId edges', () => {
  it('refuses an id with anything before the q', () => {
    for (const id of [' q1', 'xq1', '0q1', 'qq1']) expect(parseQuoteId(id)).toBeUndefined()
  })
})
