import { describe, expect, it } from 'vitest'
import {
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordLengthProblem,
  verifyPassword,
} from '../../../src/lib/passwords.js'

describe('passwords', () => {
  it('takes 10 to 200 characters, and says which bound a refused one missed', () => {
    expect(passwordLengthProblem('x'.repeat(PASSWORD_MIN_LENGTH - 1))).toBe(
      'Use at least 10 characters.',
    )
    expect(passwordLengthProblem('x'.repeat(PASSWORD_MIN_LENGTH))).toBeUndefined()
    expect(passwordLengthProblem('x'.repeat(PASSWORD_MAX_LENGTH))).toBeUndefined()
    expect(passwordLengthProblem('x'.repeat(PASSWORD_MAX_LENGTH + 1))).toBe(
      'Use at most 200 characters.',
    )
  })

  it("hashes with argon2id at OWASP's minimum cost, salted", async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')])
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(a).not.toBe(b)
  })

  it('verifies the right password only', async () => {
    const stored = await hashPassword('correct horse battery')
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true)
    expect(await verifyPassword(stored, 'correct horse batterY')).toBe(false)
  })

  it('says no, without an error, for an unknown account, a damaged hash or an over-long password', async () => {
    expect(await verifyPassword(undefined, 'anything at all')).toBe(false)
    expect(await verifyPassword('not-a-hash', 'anything at all')).toBe(false)
    const long = 'y'.repeat(PASSWORD_MAX_LENGTH + 1)
    // Even its own hash: a password past the limit is never hashed at log-in.
    expect(await verifyPassword(await hashPassword(long), long)).toBe(false)
    const longest = 'z'.repeat(PASSWORD_MAX_LENGTH)
    expect(await verifyPassword(await hashPassword(longest), longest)).toBe(true)
  })
})
