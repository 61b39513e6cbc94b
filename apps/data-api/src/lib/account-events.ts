import type pg from 'pg'

/** What the activity log records (the CHECK constraint of account_events lists the same). */
export const EVENT_KINDS = [
  'account_created',
  'signed_in',
  'sign_in_failed',
  'key_created',
  'key_rolled',
  'key_revoked',
  'key_expired',
  'key_renamed',
  'plan_changed',
  'password_changed',
  'email_changed',
  'account_disabled',
  'account_enabled',
  'key_usage_reset',
] as const
export type EventKind = (typeof EVENT_KINDS)[number]

/** Who caused an event: the account's holder, an operator (the admin CLI), or the service. */
export type Actor = 'user' | 'admin' | 'system'

/** Where an event comes from: the holder's client address, or an operator (BY_ADMIN). */
export type EventOrigin = string | undefined | typeof BY_ADMIN
export const BY_ADMIN = Object.freeze({ actor: 'admin' as const })

/** Names, prefixes, plans: never a password, a key or a cookie. */
export type EventDetail = Record<string, string | number | null>

export interface AccountEvent {
  id: string
  at: Date
  kind: EventKind
  actor: Actor
  client_address: string | null
  detail: EventDetail
}

type Queryable = Pick<pg.ClientBase, 'query'>

/**
 * Records an event with where it came from: the holder's client address, or an operator
 * (BY_ADMIN). In the caller's transaction, if any.
 */
export async function recordEvent(
  db: Queryable,
  userId: string,
  kind: EventKind,
  origin: EventOrigin,
  detail: EventDetail = {},
): Promise<void> {
  const byAdmin = typeof origin === 'object'
  await db.query(
    `INSERT INTO account_events (user_id, kind, actor, client_address, detail)
     VALUES ($1, $2, $3, $4, $5)`,
    [
      userId,
      kind,
      byAdmin ? 'admin' : 'user',
      byAdmin ? null : (origin?.slice(0, 100) ?? null),
      detail,
    ],
  )
}

/** The activity log of each account, newest first. */
export class AccountEvents {
  constructor(private readonly pool: pg.Pool) {}

  record(userId: string, kind: EventKind, origin?: EventOrigin, detail?: EventDetail) {
    return recordEvent(this.pool, userId, kind, origin, detail)
  }

  /** One page (from 1) of the user's events, newest first, and whether older ones follow. */
  async page(
    userId: string,
    page: number,
    perPage: number,
  ): Promise<{ events: AccountEvent[]; more: boolean }> {
    const { rows } = await this.pool.query<AccountEvent>(
      `SELECT id, at, kind, actor, client_address, detail FROM account_events WHERE user_id = $1
        ORDER BY at DESC, id DESC LIMIT $2 OFFSET $3`,
      [userId, perPage + 1, (page - 1) * perPage],
    )
    return { events: rows.slice(0, perPage), more: rows.length > perPage }
  }

  /**
   * Records the expiry of every key that has expired by `now` and is not recorded yet, at its
   * expiry time. Exactly once whoever runs it: the UPDATE takes each row once (a concurrent run
   * waits for the row, then finds it recorded).
   */
  async recordExpiries(now: Date): Promise<number> {
    const { rowCount } = await this.pool.query(
      `WITH expired AS (
         UPDATE api_keys SET expiry_recorded = true
          WHERE expires_at IS NOT NULL AND expires_at <= $1 AND NOT expiry_recorded
            AND revoked_at IS NULL
          RETURNING user_id, name, display_prefix, expires_at)
       INSERT INTO account_events (user_id, at, kind, actor, detail)
       SELECT user_id, expires_at, 'key_expired', 'system',
              jsonb_build_object('name', name, 'prefix', display_prefix) FROM expired`,
      [now],
    )
    return rowCount ?? 0
  }
}

const str = (value: unknown) => String(value ?? '')

/** One line a person reads for an event (saying so when an operator did it). */
export function describeEvent(event: Pick<AccountEvent, 'kind' | 'detail' | 'actor'>): string {
  const text = describeKind(event)
  return event.actor === 'admin' ? `${text} (by an administrator)` : text
}

function describeKind(event: Pick<AccountEvent, 'kind' | 'detail'>): string {
  const d = event.detail
  const key = () => `“${str(d.name)}” (${str(d.prefix)}…)`
  switch (event.kind) {
    case 'account_created':
      return `Account created on the ${str(d.plan)} plan`
    case 'signed_in':
      return 'Signed in'
    case 'sign_in_failed':
      return 'Failed sign-in (wrong password)'
    case 'key_created':
      return `Key ${key()} created${d.expires_at ? `, expiring ${str(d.expires_at)}` : ''}`
    case 'key_rolled':
      return `Key ${key()} rolled: new key ${str(d.new_prefix)}…; the old one is accepted until ${str(d.old_until)}`
    case 'key_revoked':
      return `Key ${key()} revoked`
    case 'key_expired':
      return `Key ${key()} expired`
    case 'key_renamed':
      return `Key ${str(d.prefix)}… renamed from “${str(d.from)}” to “${str(d.to)}”`
    case 'plan_changed':
      return `Plan changed from ${str(d.from)} to ${str(d.to)}`
    case 'password_changed':
      return `Password changed; ${str(d.sessions_ended)} other session(s) ended`
    case 'email_changed':
      return `E-mail changed from ${str(d.from)} to ${str(d.to)}`
    case 'account_disabled':
      return `Account disabled; its keys are refused and ${str(d.sessions_ended)} session(s) ended`
    case 'account_enabled':
      return 'Account enabled again'
    case 'key_usage_reset':
      return `Key ${key()}: today’s count reset (it was ${str(d.used)})`
  }
}
