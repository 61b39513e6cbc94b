import { describe, expect, it } from 'vitest'
import type { ApiKeyRow } from '../../../src/lib/api-keys.js'
import { keyState } from '../../../src/lib/key-state.js'

const now = new Date('2026-03-01T12:00:00Z')
const before = new Date(now.getTime() - 1)
const after = new Date(now.getTime() + 1)

const key = (fields: Partial<ApiKeyRow> = {}): ApiKeyRow => ({
  id: 'k1',
  name: 'test',
  display_prefix: 'dk_abc',
  created_at: new Date('2026-01-01T00:00:00Z'),
  last_used_at: null,
  revoked_at: null,
  expires_at: null,
  rolled_to: null,
  ...fields,
})

describe('keyState', () => {
  it('calls a key with no end date and no successor active', () => {
    expect(keyState(key(), now)).toBe('active')
  })

  it('calls a key with a future end date expiring', () => {
    expect(keyState(key({ expires_at: after }), now)).toBe('expiring')
  })

  it('calls a key expired from its end date on (inclusive)', () => {
    expect(keyState(key({ expires_at: now }), now)).toBe('expired')
    expect(keyState(key({ expires_at: before }), now)).toBe('expired')
  })

  it('calls a rolled key still in its grace period grace, and expired once it ends', () => {
    expect(keyState(key({ rolled_to: 'k2', expires_at: after }), now)).toBe('grace')
    expect(keyState(key({ rolled_to: 'k2', expires_at: before }), now)).toBe('expired')
  })

  it('calls a revoked key revoked, whatever its end date or successor', () => {
    expect(keyState(key({ revoked_at: before }), now)).toBe('revoked')
    expect(keyState(key({ revoked_at: before, expires_at: before, rolled_to: 'k2' }), now)).toBe(
      'revoked',
    )
  })
})
