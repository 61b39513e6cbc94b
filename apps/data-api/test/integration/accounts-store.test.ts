import { describe, expect, it } from 'vitest'
import { BY_ADMIN } from '../../src/lib/account-events.js'
import { EmailTakenError } from '../../src/lib/accounts.js'
import { sessionIdHash } from '../../src/lib/sessions.js'
import { useStores } from '../support/store-db.js'

/* Accounts on a database of their own: each change, its plan history, its event, its sessions. */

const s = useStores('accounts_store')

const planChanges = async (userId: string) =>
  (
    await s.pool.query(
      'SELECT from_plan, to_plan FROM plan_changes WHERE user_id = $1 ORDER BY id',
      [userId],
    )
  ).rows.map((r) => [r.from_plan, r.to_plan])
const sessionCount = async (userId: string) =>
  (await s.pool.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [userId]))
    .rows[0].n

describe('accounts', () => {
  it('creates an account with its first plan and its event; an address taken in any case is refused', async () => {
    const user = await s.accounts.create('New.Person@example.com', 'h1', 'PRO', '198.51.100.1')
    expect(user).toMatchObject({ email: 'New.Person@example.com', plan: 'PRO', disabled_at: null })
    expect(user.created_at).toBeInstanceOf(Date)
    expect(user.plan_changed_at).toBeInstanceOf(Date)
    expect(await planChanges(user.id)).toEqual([[null, 'PRO']])
    expect(await s.eventsOf(user.id)).toEqual([
      {
        kind: 'account_created',
        actor: 'user',
        client_address: '198.51.100.1',
        detail: { plan: 'PRO' },
      },
    ])
    const taken = s.accounts.create('new.person@EXAMPLE.com', 'h2', 'FREE')
    await expect(taken).rejects.toBeInstanceOf(EmailTakenError)
    await expect(taken).rejects.toMatchObject({ name: 'EmailTakenError' })
    await expect(taken).rejects.toThrow('new.person@EXAMPLE.com')
    // Any other failure is not "taken".
    const bad = s.accounts.create('other@example.com', 'h3', 'NO_SUCH_PLAN' as 'FREE')
    await expect(bad).rejects.not.toBeInstanceOf(EmailTakenError)
    await expect(bad).rejects.toThrow(/plan/)
  })

  it('finds accounts by e-mail (any case, with the hash) and by id', async () => {
    const user = await s.user()
    expect(await s.accounts.findByEmail(user.email.toUpperCase())).toEqual({
      ...user,
      password_hash: expect.stringMatching(/^hash-/),
    })
    expect(await s.accounts.findById(user.id)).toEqual(user)
    expect(await s.accounts.passwordHash(user.id)).toMatch(/^hash-/)
    const nobody = '00000000-0000-4000-8000-000000000000'
    expect(await s.accounts.findByEmail('nobody@example.com')).toBeUndefined()
    expect(await s.accounts.findById(nobody)).toBeUndefined()
    expect(await s.accounts.passwordHash(nobody)).toBeUndefined()
  })

  it('changes a plan once, with its history and event; the same plan changes nothing', async () => {
    const user = await s.user()
    expect(await s.accounts.changePlan(user.id, 'FREE')).toBe(false)
    expect(await s.accounts.changePlan(user.id, 'PRO', BY_ADMIN)).toBe(true)
    expect(await s.accounts.changePlan('00000000-0000-4000-8000-000000000000', 'PRO')).toBe(
      undefined,
    )
    const after = await s.accounts.findById(user.id)
    expect(after?.plan).toBe('PRO')
    expect(after?.plan_changed_at.getTime()).toBeGreaterThan(user.plan_changed_at.getTime())
    expect(await planChanges(user.id)).toEqual([
      [null, 'FREE'],
      ['FREE', 'PRO'],
    ])
    expect((await s.eventsOf(user.id)).slice(1)).toEqual([
      {
        kind: 'plan_changed',
        actor: 'admin',
        client_address: null,
        detail: { from: 'FREE', to: 'PRO' },
      },
    ])
  })

  it('disables an account (ending its sessions) and enables it again, once each', async () => {
    const user = await s.user()
    await s.sessions.open(user.id)
    await s.sessions.open(user.id)
    expect(await s.accounts.setDisabled(user.id, false, BY_ADMIN)).toBe(false)
    expect(await s.accounts.setDisabled(user.id, true, BY_ADMIN)).toBe(true)
    expect((await s.accounts.findById(user.id))?.disabled_at).toBeInstanceOf(Date)
    expect(await sessionCount(user.id)).toBe(0)
    expect(await s.accounts.setDisabled(user.id, true, BY_ADMIN)).toBe(false)
    expect(await s.accounts.setDisabled(user.id, false, '192.0.2.9')).toBe(true)
    expect((await s.accounts.findById(user.id))?.disabled_at).toBeNull()
    expect(
      await s.accounts.setDisabled('00000000-0000-4000-8000-000000000000', true, BY_ADMIN),
    ).toBe(undefined)
    expect((await s.eventsOf(user.id)).slice(1)).toEqual([
      {
        kind: 'account_disabled',
        actor: 'admin',
        client_address: null,
        detail: { sessions_ended: 2 },
      },
      { kind: 'account_enabled', actor: 'user', client_address: '192.0.2.9', detail: {} },
    ])
  })

  it('changes the password, ending every other session', async () => {
    const user = await s.user()
    const kept = await s.sessions.open(user.id)
    await s.sessions.open(user.id)
    await s.sessions.open(user.id)
    expect(
      await s.accounts.changePassword(user.id, 'new-hash', sessionIdHash(kept), '192.0.2.1'),
    ).toBe(2)
    expect(await s.accounts.passwordHash(user.id)).toBe('new-hash')
    expect((await s.sessions.find(kept))?.user.id).toBe(user.id)
    expect(await sessionCount(user.id)).toBe(1)
    expect((await s.eventsOf(user.id)).at(-1)).toEqual({
      kind: 'password_changed',
      actor: 'user',
      client_address: '192.0.2.1',
      detail: { sessions_ended: 2 },
    })
  })

  it('changes the e-mail address, ending every other session; a taken one is refused', async () => {
    const [user, other] = [await s.user(), await s.user()]
    const kept = await s.sessions.open(user.id)
    await s.sessions.open(user.id)
    await s.accounts.changeEmail(user.id, user.email, sessionIdHash(kept))
    expect(await sessionCount(user.id)).toBe(2)
    await s.accounts.changeEmail(user.id, 'moved@example.com', sessionIdHash(kept), '192.0.2.2')
    expect((await s.accounts.findById(user.id))?.email).toBe('moved@example.com')
    expect(await sessionCount(user.id)).toBe(1)
    expect((await s.sessions.find(kept))?.user.email).toBe('moved@example.com')
    const events = await s.eventsOf(user.id)
    expect(events.slice(1)).toEqual([
      {
        kind: 'email_changed',
        actor: 'user',
        client_address: '192.0.2.2',
        detail: { from: user.email, to: 'moved@example.com' },
      },
    ])
    await expect(
      s.accounts.changeEmail(other.id, 'moved@example.com', sessionIdHash(kept)),
    ).rejects.toBeInstanceOf(EmailTakenError)
    await s.accounts.changeEmail(
      '00000000-0000-4000-8000-000000000000',
      'x@example.com',
      Buffer.alloc(32),
    )
    expect(await s.accounts.findByEmail('x@example.com')).toBeUndefined()
    const broken = s.accounts.changeEmail('not-a-uuid', 'y@example.com', Buffer.alloc(32))
    await expect(broken).rejects.not.toBeInstanceOf(EmailTakenError)
  })

  it('deletes an account with everything it owns, answering its key ids', async () => {
    const user = await s.user()
    const a = await s.keys.create(user.id, 'a')
    const b = await s.keys.create(user.id, 'b')
    await s.sessions.open(user.id)
    expect((await s.accounts.delete(user.id))?.sort()).toEqual([a.row.id, b.row.id].sort())
    expect(await s.accounts.findById(user.id)).toBeUndefined()
    expect(await sessionCount(user.id)).toBe(0)
    expect(await s.eventsOf(user.id)).toEqual([])
    expect(await s.accounts.delete(user.id)).toBeUndefined()
    const keyless = await s.user()
    expect(await s.accounts.delete(keyless.id)).toEqual([])
  })
})
