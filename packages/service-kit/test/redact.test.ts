import { describe, expect, it } from 'vitest'
import { redactUrl } from '../src/redact.js'

describe('redactUrl', () => {
  it('hides the password of a connection URL and keeps the rest', () => {
    expect(redactUrl('postgres://app:s3cret@db:5432/quotes')).toBe(
      'postgres://app:***@db:5432/quotes',
    )
  })

  it('leaves a URL without a password as it is', () => {
    expect(redactUrl('redis://cache:6379')).toBe('redis://cache:6379')
    expect(redactUrl('postgres://app@db/quotes')).toBe('postgres://app@db/quotes')
  })

  it('never echoes text it cannot parse (it may hold a secret)', () => {
    expect(redactUrl('not a url with s3cret')).toBe('<unparseable url>')
  })
})
