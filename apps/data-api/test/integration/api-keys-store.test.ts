import { describe, expect, it } from 'vitest'
import { BY_ADMIN } from '../../src/lib/account-events.js'
import { API_KEY_PATTERN, hashApiKey } from '../../src/lib/api-key.js'
import { KeyLimitError } from '../../src/lib/api-keys.js'
import { useStores } from '../support/store-db.js'

/* API keys on a database of their own, by the store's clock: the cap, roll, revoke, identify. */

const MIN = 60_000
let now = new Date('2030-01-01T12:00:00.000Z')
const later = (ms: number) => new Date(now.getTime() + ms)
const s = useStores('api_keys_store', () => now)

describe('api keys', () => {
  it('creates a key shown once, stored by hash, with its event', async () => {
    const user = await s.user()
    const made = await s.keys.create(user.id, 'CI', {
      expiresAt: later(MIN),
      clientAddress: '192.0.2.4',
    })
    expect(made.key).toMatch(API_KEY_PATTERN)
    expect(made.hash).toEqual(hashApiKey(made.key))
    expect(made.row).toMatchObject({
      name: 'CI',
      display_prefix: made.key.slice(0, made.row.display_prefix.length),
      created_at: now,
      expires_at: later(MIN),
      last_used_at: null,
      revoked_at: null,
      rolled_to: null,
    })
    expect((await s.eventsOf(user.id)).at(-1)).toEqual({
      kind: 'key_created',
      actor: 'user',
      client_address: '192.0.2.4',
      detail: { name: 'CI', prefix: made.row.display_prefix, expires_at: later(MIN).toISOString() },
    })
    const forever = await s.keys.create(user.id, 'forever')
    expect(forever.row.expires_at).toBeNull()
    expect((await s.eventsOf(user.id)).at(-1)?.detail.expires_at).toBeNull()
  })

  it('caps the accepted keys a user holds; revoked and expired ones do not count', async () => {
    const user = await s.user()
    const create = (name: string, opts = {}) => {
      now = later(1)
      return s.keys.create(user.id, name, opts)
    }
    const first = await create('k1')
    const expiring = later(10)
    await create('k2', { expiresAt: expiring })
    await create('k3')
    const refused = create('k4')
    await expect(refused).rejects.toBeInstanceOf(KeyLimitError)
    await expect(refused).rejects.toMatchObject({ name: 'KeyLimitError' })
    await expect(refused).rejects.toThrow('You already have 3 active keys; revoke one first.')
    now = expiring
    await create('k4')
    await expect(create('k5')).rejects.toBeInstanceOf(KeyLimitError)
    await s.keys.revoke(user.id, first.row.id)
    await create('k5')
    // Accepted keys first, each group newest first.
    expect((await s.keys.list(user.id)).map((k) => k.name)).toEqual(['k5', 'k4', 'k3', 'k2', 'k1'])
  })

  it('keeps the cap when a user creates keys concurrently', async () => {
    const user = await s.user()
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => s.keys.create(user.id, `c${i}`)),
    )
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3)
    expect((await s.keys.list(user.id)).length).toBe(3)
  })

  it("gets and revokes only the user's own keys, once", async () => {
    const [user, other] = [await s.user(), await s.user()]
    const { row, hash } = await s.keys.create(user.id, 'mine')
    expect(await s.keys.get(other.id, row.id)).toBeUndefined()
    expect((await s.keys.get(user.id, row.id))?.name).toBe('mine')
    expect(await s.keys.revoke(other.id, row.id)).toBeUndefined()
    expect(await s.keys.revoke(user.id, row.id, BY_ADMIN)).toEqual(hash)
    expect(await s.keys.revoke(user.id, row.id)).toBeUndefined()
    expect((await s.keys.get(user.id, row.id))?.revoked_at).toBeInstanceOf(Date)
    expect((await s.eventsOf(user.id)).at(-1)).toEqual({
      kind: 'key_revoked',
      actor: 'admin',
      client_address: null,
      detail: { name: 'mine', prefix: row.display_prefix },
    })
  })

  it('renames an unrevoked key, recording only a real change', async () => {
    const user = await s.user()
    const { row, hash } = await s.keys.create(user.id, 'old')
    expect(await s.keys.rename(user.id, row.id, 'new', '192.0.2.5')).toEqual(hash)
    expect(await s.keys.rename(user.id, row.id, 'new')).toEqual(hash)
    expect((await s.keys.get(user.id, row.id))?.name).toBe('new')
    const renames = (await s.eventsOf(user.id)).filter((e) => e.kind === 'key_renamed')
    expect(renames).toEqual([
      {
        kind: 'key_renamed',
        actor: 'user',
        client_address: '192.0.2.5',
        detail: { prefix: row.display_prefix, from: 'old', to: 'new' },
      },
    ])
    await s.keys.revoke(user.id, row.id)
    expect(await s.keys.rename(user.id, row.id, 'again')).toBeUndefined()
  })

  it('rolls a key: the same name and lifetime, the old one accepted for the grace period', async () => {
    const user = await s.user()
    const old = await s.keys.create(user.id, 'roll me', { expiresAt: later(60 * MIN) })
    now = later(10 * MIN)
    const rolled = await s.keys.roll(user.id, old.row.id, 5 * MIN, '192.0.2.6')
    if (!rolled) throw new Error('not rolled')
    expect(rolled.key).toMatch(API_KEY_PATTERN)
    expect(rolled.hash).toEqual(hashApiKey(rolled.key))
    expect(rolled.oldHash).toEqual(old.hash)
    expect(rolled.oldUntil).toEqual(later(5 * MIN))
    expect(rolled.row).toMatchObject({
      name: 'roll me',
      created_at: now,
      expires_at: later(60 * MIN),
    })
    expect(await s.keys.get(user.id, old.row.id)).toMatchObject({
      rolled_to: rolled.row.id,
      expires_at: later(5 * MIN),
    })
    expect((await s.eventsOf(user.id)).at(-1)).toEqual({
      kind: 'key_rolled',
      actor: 'user',
      client_address: '192.0.2.6',
      detail: {
        name: 'roll me',
        prefix: old.row.display_prefix,
        new_prefix: rolled.row.display_prefix,
        old_until: later(5 * MIN).toISOString(),
      },
    })
    // Rolled once only; and another user's key is not found.
    expect(await s.keys.roll(user.id, old.row.id, MIN)).toBeUndefined()
    const other = await s.user()
    expect(await s.keys.roll(other.id, rolled.row.id, MIN)).toBeUndefined()
  })

  it('keeps an old key no longer than its own expiry; a key without one rolls to one without', async () => {
    const user = await s.user()
    const soon = await s.keys.create(user.id, 'soon', { expiresAt: later(2 * MIN) })
    expect((await s.keys.roll(user.id, soon.row.id, 60 * MIN))?.oldUntil).toEqual(later(2 * MIN))
    const other = await s.user()
    const forever = await s.keys.create(other.id, 'forever')
    const next = await s.keys.roll(other.id, forever.row.id, 0)
    expect(next?.row.expires_at).toBeNull()
    expect(next?.oldUntil).toEqual(now)
    // With no grace the old key is expired at once: not accepted, so not rolled again.
    expect(await s.keys.roll(other.id, forever.row.id, MIN)).toBeUndefined()
    const expired = await s.keys.create(other.id, 'gone', { expiresAt: now })
    expect(await s.keys.roll(other.id, expired.row.id, MIN)).toBeUndefined()
  })

  it('identifies a key with its owner, until it is revoked; records last uses', async () => {
    const user = await s.user()
    const made = await s.keys.create(user.id, 'id me', { expiresAt: later(MIN) })
    const identity = await s.keys.identify(made.hash)
    expect(identity).toEqual({
      keyId: made.row.id,
      keyName: 'id me',
      displayPrefix: made.row.display_prefix,
      keyCreatedAt: now.toISOString(),
      lastUsedAt: null,
      expiresAtMs: later(MIN).getTime(),
      userId: user.id,
      email: user.email,
      plan: 'FREE',
      userCreatedAt: user.created_at.toISOString(),
      accountDisabled: false,
    })
    await s.keys.touch(new Map())
    await s.keys.touch(new Map([[made.row.id, later(5)]]))
    await s.keys.touch(new Map([[made.row.id, later(2)]]))
    expect((await s.keys.identify(made.hash))?.lastUsedAt).toBe(later(5).toISOString())
    await s.accounts.setDisabled(user.id, true, BY_ADMIN)
    expect((await s.keys.identify(made.hash))?.accountDisabled).toBe(true)
    await s.keys.revoke(user.id, made.row.id)
    expect(await s.keys.identify(made.hash)).toBeUndefined()
  })
})
