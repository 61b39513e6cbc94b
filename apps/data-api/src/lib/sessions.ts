import { createHash, randomBytes } from 'node:crypto'
import type { Plan } from '@repo/contracts'
import type pg from 'pg'
import type { User } from './accounts.js'

/** How long a session lasts after log-in. */
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60
/** Sessions one account keeps at most (the oldest are ended first). */
const MAX_SESSIONS_PER_USER = 20

export interface SessionMeta {
  clientAddress?: string
  userAgent?: string
  flash?: string
}

export interface OpenSession {
  user: User
  flash: string | null
}

/** What a session's row is found by: the SHA-256 of its token. */
export const sessionIdHash = (token: string) => createHash('sha256').update(token).digest()

/**
 * Ends the sessions of a user, all of them or all but the one whose id hash is `keep` (a password,
 * e-mail or plan change keeps the session that made it); on `db`, a pool or a transaction's
 * client. Resolves to how many were ended.
 */
export async function endSessions(
  db: Pick<pg.Pool, 'query'>,
  userId: string,
  keep?: Buffer,
): Promise<number> {
  const { rowCount } = keep
    ? await db.query('DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2', [userId, keep])
    : await db.query('DELETE FROM sessions WHERE user_id = $1', [userId])
  return rowCount ?? 0
}

/**
 * Dashboard sessions in Postgres. A session is a random 256-bit token (in the cookie) whose
 * SHA-256 is a row here: ending a session deletes the row, so a copied cookie stops working.
 */
export class Sessions {
  constructor(private readonly pool: pg.Pool) {}

  /** Opens a session for the user and returns its token (for the cookie). */
  async open(userId: string, meta: SessionMeta = {}): Promise<string> {
    const token = randomBytes(32).toString('base64url')
    await this.pool.query(
      `WITH opened AS (
         INSERT INTO sessions (id_hash, user_id, expires_at, client_address, user_agent, flash)
         VALUES ($1, $2, now() + make_interval(secs => $3), $4, $5, $6)
       )
       DELETE FROM sessions WHERE user_id = $2 AND (expires_at < now() OR id_hash IN (
         SELECT id_hash FROM sessions WHERE user_id = $2
          ORDER BY created_at DESC OFFSET $7))`,
      [
        sessionIdHash(token),
        userId,
        SESSION_LIFETIME_SECONDS,
        meta.clientAddress?.slice(0, 100) ?? null,
        meta.userAgent?.slice(0, 300) ?? null,
        meta.flash ?? null,
        MAX_SESSIONS_PER_USER - 1,
      ],
    )
    return token
  }

  /** The signed-in user of a live session, with its one-time message; undefined otherwise. */
  async find(token: string): Promise<OpenSession | undefined> {
    const { rows } = await this.pool.query<User & { flash: string | null; plan: Plan }>(
      `SELECT u.id, u.email, u.plan, u.created_at, u.plan_changed_at, u.disabled_at, s.flash
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id_hash = $1 AND s.expires_at > now() AND u.disabled_at IS NULL`,
      [sessionIdHash(token)],
    )
    const row = rows[0]
    if (!row) return undefined
    const { flash, ...user } = row
    return { user, flash }
  }

  /** Sets (or, with null, clears) the message shown on the session's next page. */
  async setFlash(token: string, flash: string | null): Promise<void> {
    await this.pool.query('UPDATE sessions SET flash = $2 WHERE id_hash = $1', [
      sessionIdHash(token),
      flash,
    ])
  }

  /** Ends one session (log-out). */
  async end(token: string): Promise<void> {
    await this.pool.query('DELETE FROM sessions WHERE id_hash = $1', [sessionIdHash(token)])
  }

  /** Ends every session of the user but `keep` (a password or plan change); returns how many. */
  endOthers(userId: string, keep: string): Promise<number> {
    return endSessions(this.pool, userId, sessionIdHash(keep))
  }
}
