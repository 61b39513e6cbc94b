import { describe, expect, it } from 'vitest'
import { BY_ADMIN } from '../../src/lib/account-events.js'
import { endSessions, SESSION_LIFETIME_SECONDS, sessionIdHash } from '../../src/lib/sessions.js'
import { useStores } from '../support/store-db.js'

/* Dashboard sessions on a database of their own: what a session keeps, how many, how it ends. */

const s = useStores('sessions_store')

const row = async (token: string) =>
  (
    await s.pool.query(
      `SELECT client_address, user_agent, flash,
              extract(epoch FROM expires_at - created_at)::int AS lifetime
         FROM sessions WHERE id_hash = $1`,
      [sessionIdHash(token)],
    )
  ).rows[0]

describe('sessions', () => {
  it('keeps the client address (100 characters), user agent (300) and first message of a session', async () => {
    const user = await s.user()
    const token = await s.sessions.open(user.id, {
      clientAddress: `2001:db8::${'a'.repeat(120)}`,
      userAgent: `Mozilla/5.0 ${'b'.repeat(400)}`,
      flash: 'Welcome',
    })
    expect(token).toMatch(/^[\w-]{43}$/)
    expect(await row(token)).toEqual({
      client_address: `2001:db8::${'a'.repeat(90)}`,
      user_agent: `Mozilla/5.0 ${'b'.repeat(288)}`,
      flash: 'Welcome',
      lifetime: SESSION_LIFETIME_SECONDS,
    })
    expect(SESSION_LIFETIME_SECONDS).toBe(43_200)
    const bare = await s.sessions.open(user.id)
    expect(await row(bare)).toMatchObject({ client_address: null, user_agent: null, flash: null })
  })

  it('finds the user of a live session with its message, which can be set and cleared', async () => {
    const user = await s.user()
    const token = await s.sessions.open(user.id, { flash: 'Signed up' })
    expect(await s.sessions.find(token)).toEqual({ user, flash: 'Signed up' })
    await s.sessions.setFlash(token, 'Key created')
    expect((await s.sessions.find(token))?.flash).toBe('Key created')
    await s.sessions.setFlash(token, null)
    expect((await s.sessions.find(token))?.flash).toBeNull()
    expect(await s.sessions.find('not-a-session')).toBeUndefined()
  })

  it('finds no session once it expired or its account is disabled', async () => {
    const user = await s.user()
    const token = await s.sessions.open(user.id)
    await s.pool.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id_hash = $1`,
      [sessionIdHash(token)],
    )
    expect(await s.sessions.find(token)).toBeUndefined()
    const other = await s.sessions.open(user.id)
    // Opening a session cleared the expired one.
    expect(await row(token)).toBeUndefined()
    await s.pool.query('UPDATE users SET disabled_at = now() WHERE id = $1', [user.id])
    expect(await s.sessions.find(other)).toBeUndefined()
  })

  it('keeps the 20 newest sessions of an account', async () => {
    const user = await s.user()
    const tokens: string[] = []
    for (let i = 0; i < 22; i += 1) tokens.push(await s.sessions.open(user.id))
    const live = await Promise.all(
      tokens.map(async (t) => (await s.sessions.find(t)) !== undefined),
    )
    expect(live).toEqual([false, false, ...Array(20).fill(true)])
  })

  it('ends one session, all but one, or all of them', async () => {
    const user = await s.user()
    const [a, b, c, d] = [
      await s.sessions.open(user.id),
      await s.sessions.open(user.id),
      await s.sessions.open(user.id),
      await s.sessions.open(user.id),
    ]
    await s.sessions.end(a)
    expect(await s.sessions.find(a)).toBeUndefined()
    expect(await s.sessions.endOthers(user.id, b)).toBe(2)
    expect([await s.sessions.find(b), await s.sessions.find(c), await s.sessions.find(d)]).toEqual([
      { user, flash: null },
      undefined,
      undefined,
    ])
    await s.sessions.open(user.id)
    expect(await endSessions(s.pool, user.id)).toBe(2)
    expect(await s.sessions.find(b)).toBeUndefined()
    expect(await endSessions(s.pool, user.id)).toBe(0)
    // Disabling ends them all too.
    await s.sessions.open(user.id)
    await s.accounts.setDisabled(user.id, true, BY_ADMIN)
    expect(await endSessions(s.pool, user.id)).toBe(0)
  })
})
