import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PasswordStrength, weakPassword } from '../../src/lib/password-strength.js'

// The life of PasswordStrength's worker thread: started and warmed up at the first check, given a
// time budget per check, let go when idle, refused after close. Real zxcvbn-ts, real threads.

/** zxcvbn takes about 200 ms over this one (64 characters judged); a plain password, a few ms. */
const SLOW = '4@3$1!0'.repeat(28)
const PLAIN = 'kx9vq2mzlp'
/** Short enough for the dictionaries' load (about 250 ms) to overrun it, long enough for PLAIN. */
const TIGHT_MS = 150

/** The threads of this process (Linux): the worker's comes and goes. */
const threadCount = () => readdirSync('/proc/self/task').length

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  while (!condition()) {
    if (Date.now() > until) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return true
}

async function using<T>(
  options: ConstructorParameters<typeof PasswordStrength>[0],
  fn: (strength: PasswordStrength) => Promise<T>,
): Promise<T> {
  const strength = new PasswordStrength(options)
  try {
    return await fn(strength)
  } finally {
    await strength.close()
  }
}

describe('the password strength worker', () => {
  it('gives up a check that overruns its budget, and tells the user to choose a simpler password', async () => {
    await using({ timeoutMs: 20 }, async (strength) => {
      await expect(strength.check(SLOW, [])).rejects.toMatchObject({
        name: 'StrengthTimeoutError',
        message: 'the password strength check took too long',
      })
      expect(await weakPassword(strength, SLOW, 'someone@example.com')).toEqual({
        message: 'This password took too long to check; choose a simpler one.',
        suggestions: [],
      })
    })
  })

  it('does not count loading the dictionaries against the first check', async () => {
    await using({ timeoutMs: TIGHT_MS }, async (strength) => {
      expect((await strength.check(PLAIN, [])).score).toBe(3)
    })
  })

  it('lets an idle worker go, and warms the next one up before the next check', async () => {
    const before = threadCount()
    await using({ idleTimeoutMs: 50, timeoutMs: TIGHT_MS }, async (strength) => {
      await strength.check(PLAIN, [])
      expect(threadCount()).toBe(before + 1)
      expect(await waitFor(() => threadCount() === before, 5_000)).toBe(true)
      expect((await strength.check(PLAIN, [])).score).toBe(3)
    })
  })

  it('keeps a worker between checks by default', async () => {
    const before = threadCount()
    await using({}, async (strength) => {
      await strength.check(PLAIN, [])
      expect(await waitFor(() => threadCount() === before, 500)).toBe(false)
    })
  })

  it('refuses a check after close, and weakPassword passes that error on', async () => {
    const strength = new PasswordStrength()
    await strength.check(PLAIN, [])
    await strength.close()
    await expect(strength.check(PLAIN, [])).rejects.toThrow(
      'the password strength checker is closed',
    )
    await expect(weakPassword(strength, PLAIN, 'someone@example.com')).rejects.toThrow(
      'the password strength checker is closed',
    )
  })

  it('closes without ever having started a worker', async () => {
    await expect(new PasswordStrength().close()).resolves.toBeUndefined()
  })

  it('passes on a failure of the check itself, not as a time-out', async () => {
    await using({}, async (strength) => {
      const error = await strength.check(undefined as unknown as string, []).catch((e) => e)
      expect(error).toBeInstanceOf(Error)
      expect(error.name).not.toBe('StrengthTimeoutError')
    })
  })
})
