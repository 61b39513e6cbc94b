import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessionSecret } from '../../src/lib/session-secret.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

// The cookie-signing secret: the configured one, or one made once and kept in Postgres.

let t: TestApp
beforeAll(async () => {
  // The test app is given a SESSION_SECRET, so it stores none itself.
  t = await createTestApp('session_secret')
})
afterAll(async () => {
  await t?.close()
})

const stored = async () =>
  (await t.app.pg.query<{ value: string }>("SELECT value FROM app_secrets WHERE name = 'session'"))
    .rows

describe('session secret', () => {
  it('uses SESSION_SECRET when it is set, and stores nothing', async () => {
    expect(await sessionSecret(t.app.pg, 'configured-secret-of-enough-length')).toEqual({
      secret: 'configured-secret-of-enough-length',
      source: 'SESSION_SECRET',
    })
    expect(await stored()).toEqual([])
  })

  it('otherwise makes one, once, shared by every caller at once', async () => {
    const all = await Promise.all(
      Array.from({ length: 5 }, () => sessionSecret(t.app.pg, undefined)),
    )
    const [first] = all
    expect(first?.source).toBe('postgres')
    expect(first?.secret).toMatch(/^[A-Za-z0-9_-]{64}$/)
    for (const one of all) expect(one).toEqual(first)
    expect(await stored()).toEqual([{ value: first?.secret }])
    expect(await sessionSecret(t.app.pg, '')).toEqual(first)
  })

  it('refuses to go on with an empty stored secret', async () => {
    await t.app.pg.query("UPDATE app_secrets SET value = '' WHERE name = 'session'")
    await expect(sessionSecret(t.app.pg, undefined)).rejects.toThrow(
      'could not read or store the session secret',
    )
  })
})
