import { DataInfoResponse, PLANS } from '@repo/contracts'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import type { KeyIdentity } from '../../src/lib/api-keys.js'
import { dataInfo, dataInfoJson } from '../../src/lib/data-info-body.js'
import type { QuotaDecision } from '../../src/lib/quota.js'

const identity = (over: Partial<KeyIdentity> = {}): KeyIdentity => ({
  keyId: '3a12dbd9-da6c-4733-9d25-ca0dec37ad6f',
  keyName: 'bench "7" \\ ключ 🔑',
  displayPrefix: 'sk_AbCdEf',
  keyCreatedAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: null,
  expiresAtMs: null,
  userId: '268f14d4-a559-45c5-94c3-fb11dda75101',
  email: 'o"brien+test@example.com',
  plan: 'FREE',
  userCreatedAt: '2026-11-01T08:30:00.000Z',
  accountDisabled: false,
  ...over,
})

const quota = (used: number, limit = 1000): QuotaDecision => ({
  allowed: true,
  limit,
  used,
  remaining: Math.max(limit - used, 0),
  resetsAtIso: '2026-11-24T00:00:00.000Z',
  resetSeconds: 3600,
  degraded: false,
})

describe('dataInfoJson', () => {
  it('is JSON.stringify of the body, byte for byte, for every plan and last use', () => {
    const cases: [KeyIdentity, Date | undefined][] = []
    for (const plan of PLANS) {
      const never = identity({ plan })
      const before = identity({ plan, lastUsedAt: '2026-11-22T12:00:00.123Z' })
      cases.push([never, undefined], [before, undefined])
      cases.push([never, new Date('2026-11-23T01:02:03.004Z')])
    }
    for (const [who, previous] of cases) {
      for (const used of [1, 999, 1000]) {
        const json = dataInfoJson(who, quota(used), previous)
        expect(json).toBe(JSON.stringify(dataInfo(who, quota(used), previous)))
        expect(Value.Check(DataInfoResponse, JSON.parse(json))).toBe(true)
      }
    }
  })

  it('follows the quota and last use of each request with the parts it keeps per identity', () => {
    const who = identity({ plan: 'ENTERPRISE' })
    const first = JSON.parse(dataInfoJson(who, quota(1, 100_000), undefined))
    const second = JSON.parse(
      dataInfoJson(who, quota(2, 100_000), new Date('2026-11-23T05:00:00.000Z')),
    )
    expect(first.key.last_used_at).toBeNull()
    expect(first.quota).toEqual({
      limit: 100_000,
      used: 1,
      remaining: 99_999,
      resets_at: '2026-11-24T00:00:00.000Z',
    })
    expect(second.key.last_used_at).toBe('2026-11-23T05:00:00.000Z')
    expect(second.quota.used).toBe(2)
    expect(second.user.email).toBe('o"brien+test@example.com')
    expect(second.key.name).toBe('bench "7" \\ ключ 🔑')
  })

  it('builds the parts once per identity object (the key cache hands the same one to each request)', () => {
    const who = identity({ keyName: 'first name' })
    expect(JSON.parse(dataInfoJson(who, quota(1), undefined)).key.name).toBe('first name')
    // A cached identity is never changed in place; were it changed, the parts kept show it is
    // the first build that answers.
    who.keyName = 'changed in place'
    expect(JSON.parse(dataInfoJson(who, quota(2), undefined)).key.name).toBe('first name')
    // Another object (a renamed key is a new identity in the cache) gets its own parts.
    const renamed = { ...who }
    expect(JSON.parse(dataInfoJson(renamed, quota(3), undefined)).key.name).toBe('changed in place')
  })
})
