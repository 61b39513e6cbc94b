import type { ApiKeyRow } from './api-keys.js'

export type KeyState = 'active' | 'expiring' | 'grace' | 'expired' | 'revoked'

/** Where a key stands at `now`, as the dashboard and the admin CLI show it. */
export function keyState(key: ApiKeyRow, now: Date): KeyState {
  if (key.revoked_at) return 'revoked'
  if (key.expires_at && key.expires_at <= now) return 'expired'
  if (key.rolled_to) return 'grace'
  return key.expires_at ? 'expiring' : 'active'
}
