import { describe, expect, it } from 'vitest'
import {
  type AccountEvent,
  BY_ADMIN,
  describeEvent,
  EVENT_KINDS,
  recordEvent,
} from '../../src/lib/account-events.js'
import { useStores } from '../support/store-db.js'

/* The activity log on a database of its own: what is recorded, how it pages, and its wording. */

const s = useStores('account_events')

describe('account events', () => {
  it('knows exactly the kinds the database accepts', async () => {
    const { rows } = await s.pool.query(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conname = 'account_events_kind_check'`,
    )
    const allowed = [...String(rows[0].def).matchAll(/'([a-z_]+)'/g)].map((m) => m[1])
    expect([...EVENT_KINDS].sort()).toEqual(allowed.sort())
    const user = await s.user()
    for (const kind of EVENT_KINDS) await recordEvent(s.pool, user.id, kind, undefined)
  })

  it('records who caused an event: the holder from an address (cut to 100 characters), or an operator', async () => {
    const user = await s.user()
    await s.events.record(user.id, 'signed_in', `203.0.113.7${'x'.repeat(200)}`)
    await s.events.record(user.id, 'signed_in')
    await s.events.record(user.id, 'plan_changed', BY_ADMIN, { from: 'FREE', to: 'PRO' })
    const [, first, second, third] = await s.eventsOf(user.id)
    expect(first).toEqual({
      kind: 'signed_in',
      actor: 'user',
      client_address: `203.0.113.7${'x'.repeat(89)}`,
      detail: {},
    })
    expect(second).toEqual({ kind: 'signed_in', actor: 'user', client_address: null, detail: {} })
    expect(third).toEqual({
      kind: 'plan_changed',
      actor: 'admin',
      client_address: null,
      detail: { from: 'FREE', to: 'PRO' },
    })
    expect(Object.isFrozen(BY_ADMIN)).toBe(true)
  })

  it('pages the log newest first and says whether older events follow', async () => {
    const user = await s.user()
    for (let i = 1; i <= 5; i += 1) await s.events.record(user.id, 'signed_in', `10.0.0.${i}`)
    const addresses = (events: AccountEvent[]) => events.map((e) => e.client_address)
    const one = await s.events.page(user.id, 1, 2)
    expect([addresses(one.events), one.more]).toEqual([['10.0.0.5', '10.0.0.4'], true])
    const two = await s.events.page(user.id, 2, 2)
    expect([addresses(two.events), two.more]).toEqual([['10.0.0.3', '10.0.0.2'], true])
    // The account_created event is the oldest: page 3 ends the log.
    const three = await s.events.page(user.id, 3, 2)
    expect([three.events.map((e) => e.kind), three.more]).toEqual([
      ['signed_in', 'account_created'],
      false,
    ])
    expect(three.events[0]).toMatchObject({ actor: 'user', detail: {} })
    expect(three.events[0]?.at).toBeInstanceOf(Date)
    expect((await s.events.page(user.id, 1, 6)).more).toBe(false)
  })

  it('records each expired key once, at its expiry, as the system', async () => {
    const user = await s.user()
    const now = new Date()
    const ago = (ms: number) => new Date(now.getTime() - ms)
    await s.keys.create(user.id, 'past', { expiresAt: ago(60_000) })
    await s.keys.create(user.id, 'now', { expiresAt: now })
    await s.keys.create(user.id, 'later', { expiresAt: new Date(now.getTime() + 60_000) })
    const revoked = await s.keys.create(user.id, 'revoked', { expiresAt: ago(1000) })
    await s.keys.revoke(user.id, revoked.row.id)
    expect(await s.events.recordExpiries(now)).toBe(2)
    expect(await s.events.recordExpiries(now)).toBe(0)
    const { rows } = await s.pool.query(
      `SELECT at, actor, detail FROM account_events WHERE user_id = $1 AND kind = 'key_expired'
        ORDER BY at`,
      [user.id],
    )
    expect(rows.map((r) => [r.at.getTime(), r.actor, r.detail.name])).toEqual([
      [ago(60_000).getTime(), 'system', 'past'],
      [now.getTime(), 'system', 'now'],
    ])
    expect(rows[0].detail.prefix).toMatch(/^sk_/)
  })

  it('describes every kind of event in one line', () => {
    const key = { name: 'CI', prefix: 'sk_ab12' }
    const lines: [AccountEvent['kind'], AccountEvent['detail'], string][] = [
      ['account_created', { plan: 'FREE' }, 'Account created on the FREE plan'],
      ['signed_in', {}, 'Signed in'],
      ['sign_in_failed', {}, 'Failed sign-in (wrong password)'],
      ['key_created', key, 'Key “CI” (sk_ab12…) created'],
      [
        'key_created',
        { ...key, expires_at: '2026-05-01T00:00:00.000Z' },
        'Key “CI” (sk_ab12…) created, expiring 2026-05-01T00:00:00.000Z',
      ],
      [
        'key_rolled',
        { ...key, new_prefix: 'sk_cd34', old_until: '2026-05-02T00:00:00.000Z' },
        'Key “CI” (sk_ab12…) rolled: new key sk_cd34…; the old one is accepted until 2026-05-02T00:00:00.000Z',
      ],
      ['key_revoked', key, 'Key “CI” (sk_ab12…) revoked'],
      ['key_expired', key, 'Key “CI” (sk_ab12…) expired'],
      [
        'key_renamed',
        { prefix: 'sk_ab12', from: 'CI', to: 'Deploy' },
        'Key sk_ab12… renamed from “CI” to “Deploy”',
      ],
      ['plan_changed', { from: 'FREE', to: 'PRO' }, 'Plan changed from FREE to PRO'],
      ['password_changed', { sessions_ended: 2 }, 'Password changed; 2 other session(s) ended'],
      [
        'email_changed',
        { from: 'a@example.com', to: 'b@example.com' },
        'E-mail changed from a@example.com to b@example.com',
      ],
      [
        'account_disabled',
        { sessions_ended: 1 },
        'Account disabled; its keys are refused and 1 session(s) ended',
      ],
      ['account_enabled', {}, 'Account enabled again'],
      [
        'key_usage_reset',
        { ...key, used: 42 },
        'Key “CI” (sk_ab12…): today’s count reset (it was 42)',
      ],
      ['key_revoked', {}, 'Key “” (…) revoked'],
    ]
    for (const [kind, detail, text] of lines) {
      expect(describeEvent({ kind, detail, actor: 'user' })).toBe(text)
    }
    expect(describeEvent({ kind: 'signed_in', detail: {}, actor: 'system' })).toBe('Signed in')
    expect(describeEvent({ kind: 'key_revoked', detail: key, actor: 'admin' })).toBe(
      'Key “CI” (sk_ab12…) revoked (by an administrator)',
    )
  })
})
