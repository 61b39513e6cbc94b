import { describe, expect, it } from 'vitest'
import { emailProblem, normalizeEmail } from '../../../src/lib/email.js'

describe('normalizeEmail', () => {
  it('trims, composes (NFC) and lower-cases, so one person has one address', () => {
    expect(normalizeEmail('  Ann@Example.COM \n')).toBe('ann@example.com')
    // "é" typed as e + combining acute becomes the single code point.
    expect(normalizeEmail('Re\u0301my@example.com')).toBe('r\u00e9my@example.com')
  })
})

describe('emailProblem', () => {
  it.each(['a@b.co', 'first.last+tag@sub.example.org', `${'x'.repeat(64)}@example.com`])(
    'accepts %s',
    (email) => {
      expect(emailProblem(email)).toBeUndefined()
    },
  )

  it.each([
    ['no @', 'ann.example.com'],
    ['nothing before @', '@example.com'],
    ['a space', 'ann smith@example.com'],
    ['two @', 'ann@x@example.com'],
    ['no dot in the domain', 'ann@localhost'],
    ['a one-letter top-level domain', 'ann@example.c'],
    ['a local part over 64 characters', `${'x'.repeat(65)}@example.com`],
    ['text before the address', 'x <ann@example.com'],
    ['text after the address', 'ann@example.com x'],
    ['over 254 characters', `ann@${'d'.repeat(247)}.com`],
  ])('refuses an address with %s', (_, email) => {
    expect(emailProblem(email)).toBe('Enter a valid e-mail address.')
  })

  it('accepts exactly 254 characters', () => {
    const email = `ann@${'d'.repeat(246)}.com`
    expect(email).toHaveLength(254)
    expect(emailProblem(email)).toBeUndefined()
  })
})
