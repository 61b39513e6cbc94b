import { afterAll, describe, expect, it } from 'vitest'
import {
  MIN_SCORE,
  PasswordStrength,
  userInputsOf,
  weakPassword,
} from '../../src/lib/password-strength.js'

// The real zxcvbn-ts with its dictionaries, in its worker thread.
const strength = new PasswordStrength()
afterAll(async () => {
  await strength.close()
})

const judge = (password: string, email = 'someone@example.com') =>
  weakPassword(strength, password, email)

describe('password strength (zxcvbn-ts)', () => {
  it('accepts long, unusual passphrases', async () => {
    expect(await judge('correct horse battery staple')).toBeUndefined()
    expect(await judge('marble kettle umbrella orbit')).toBeUndefined()
  })

  it('refuses common passwords, words from the dictionaries and keyboard walks, with feedback', async () => {
    const common = await judge('password1234')
    expect(common?.message).toMatch(/too weak.*commonly used password/)
    expect(common?.suggestions.length).toBeGreaterThan(0)
    expect((await judge('qwertyuiop12'))?.message).toMatch(/too weak/)
    expect((await judge('aaaaaaaaaaaa'))?.message).toMatch(/Repeated characters/)
    expect((await judge('sunshine2024'))?.message).toMatch(/too weak/)
  })

  it('says only that a weak password is easy to guess when zxcvbn has no warning for it', async () => {
    const weak = await judge('jumpingjacks')
    expect(weak?.message).toBe('That password is too weak: it would be easy to guess.')
    expect(weak?.suggestions.length).toBeGreaterThan(0)
  })

  it('accepts a password scored exactly at the minimum', async () => {
    expect((await strength.check('kx9vq2mzlp', [])).score).toBe(MIN_SCORE)
    expect(await judge('kx9vq2mzlp')).toBeUndefined()
  })

  it('uses the e-mail address against the password', async () => {
    const email = 'zorbulon.quimby@example.com'
    const alone = await strength.check('zorbulonquimby', [])
    const withEmail = await strength.check('zorbulonquimby', userInputsOf(email))
    expect(withEmail.score).toBeLessThan(alone.score)
    expect(await judge('zorbulonquimby', email)).toBeDefined()
    expect(userInputsOf(email)).toEqual([email, 'zorbulon.quimby', 'zorbulon', 'quimby', 'example'])
  })

  it('keeps the length rules', async () => {
    expect(await judge('Xy7!')).toEqual({
      message: expect.stringMatching(/^That password is too weak\. .*at least 10/),
      suggestions: [],
    })
    expect((await judge(`${'correct horse battery staple '.repeat(7)}`))?.message).toMatch(
      /at most 200/,
    )
  })

  it('judges a 200-character hostile password within its time budget', async () => {
    const started = performance.now()
    const result = await strength.check('4@3$1!0'.repeat(28), [])
    expect(result.score).toBeGreaterThanOrEqual(0)
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})

describe('userInputsOf', () => {
  it('gives zxcvbn the address, its local part, the parts of that and the domain name, of 3 characters or more', () => {
    expect(userInputsOf('abc.de+xyz@mail.example.org')).toEqual([
      'abc.de+xyz@mail.example.org',
      'abc.de+xyz',
      'abc',
      'xyz',
      'mail',
    ])
    expect(userInputsOf('jo_li-ann@ab.io')).toEqual(['jo_li-ann@ab.io', 'jo_li-ann', 'ann'])
  })

  it('takes a string without @ as a local part alone', () => {
    expect(userInputsOf('nobody')).toEqual(['nobody', 'nobody', 'nobody'])
  })
})
