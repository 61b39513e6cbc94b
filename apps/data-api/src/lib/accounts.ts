import type { Plan } from '@repo/contracts'
import { transact } from '@repo/service-kit'
import type pg from 'pg'
import { type EventOrigin, recordEvent } from './account-events.js'
import { endSessions } from './sessions.js'

export interface User {
  id: string
  email: string
  plan: Plan
  created_at: Date
  plan_changed_at: Date
  /** When an operator disabled the account (the admin CLI); null: enabled. */
  disabled_at: Date | null
}

interface UserWithHash extends User {
  password_hash: string
}

const USER_COLUMNS = 'id, email, plan, created_at, plan_changed_at, disabled_at'

export class EmailTakenError extends Error {
  override name = 'EmailTakenError'
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505'

/**
 * Users and their plans. Every plan change is recorded with its time; every account change is
 * written with its activity-log event in one transaction.
 */
export class Accounts {
  constructor(private readonly pool: pg.Pool) {}

  async create(
    email: string,
    passwordHash: string,
    plan: Plan,
    clientAddress?: string,
  ): Promise<User> {
    try {
      return await transact(this.pool, async (client) => {
        const { rows } = await client.query<User>(
          `INSERT INTO users (email, password_hash, plan) VALUES ($1, $2, $3)
           RETURNING ${USER_COLUMNS}`,
          [email, passwordHash, plan],
        )
        const user = rows[0] as User
        await client.query('INSERT INTO plan_changes (user_id, to_plan) VALUES ($1, $2)', [
          user.id,
          plan,
        ])
        await recordEvent(client, user.id, 'account_created', clientAddress, { plan })
        return user
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw new EmailTakenError(email)
      throw error
    }
  }

  async findByEmail(email: string): Promise<UserWithHash | undefined> {
    const { rows } = await this.pool.query<UserWithHash>(
      `SELECT ${USER_COLUMNS}, password_hash FROM users WHERE lower(email) = lower($1)`,
      [email],
    )
    return rows[0]
  }

  async findById(id: string): Promise<User | undefined> {
    const { rows } = await this.pool.query<User>(
      `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`,
      [id],
    )
    return rows[0]
  }

  /** The stored password hash of a user (to check a password they type again). */
  async passwordHash(id: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [id],
    )
    return rows[0]?.password_hash
  }

  /**
   * Changes the plan now and records the change; a no-op when the plan is the same. Resolves to
   * whether the plan changed, or undefined when there is no such user.
   */
  async changePlan(userId: string, plan: Plan, origin?: EventOrigin): Promise<boolean | undefined> {
    return transact(this.pool, async (client) => {
      const current = await client.query<{ plan: Plan }>(
        'SELECT plan FROM users WHERE id = $1 FOR UPDATE',
        [userId],
      )
      const from = current.rows[0]?.plan
      if (from === undefined) return undefined
      if (from !== plan) {
        await client.query('UPDATE users SET plan = $2, plan_changed_at = now() WHERE id = $1', [
          userId,
          plan,
        ])
        await client.query(
          'INSERT INTO plan_changes (user_id, from_plan, to_plan) VALUES ($1, $2, $3)',
          [userId, from, plan],
        )
        await recordEvent(client, userId, 'plan_changed', origin, { from, to: plan })
      }
      return from !== plan
    })
  }

  /**
   * Disables the account (its keys are refused, its sessions end, it cannot sign in) or enables
   * it again, with its event. Resolves to whether anything changed, or undefined when there is
   * no such user. The caller evicts the user's cached keys on every instance.
   */
  async setDisabled(
    userId: string,
    disabled: boolean,
    origin: EventOrigin,
  ): Promise<boolean | undefined> {
    return transact(this.pool, async (client) => {
      const { rows } = await client.query<{ disabled: boolean }>(
        'SELECT disabled_at IS NOT NULL AS disabled FROM users WHERE id = $1 FOR UPDATE',
        [userId],
      )
      const before = rows[0]?.disabled
      if (before === undefined) return undefined
      if (before === disabled) return false
      await client.query(
        'UPDATE users SET disabled_at = CASE WHEN $2 THEN now() END WHERE id = $1',
        [userId, disabled],
      )
      if (disabled) {
        await recordEvent(client, userId, 'account_disabled', origin, {
          sessions_ended: await endSessions(client, userId),
        })
      } else {
        await recordEvent(client, userId, 'account_enabled', origin)
      }
      return true
    })
  }

  /**
   * Sets a new password hash and ends every other session of the user (all but the one whose id
   * hash is `keepSession`), with its event; resolves to the number of sessions ended.
   */
  async changePassword(
    userId: string,
    passwordHash: string,
    keepSession: Buffer,
    clientAddress?: string,
  ): Promise<number> {
    return transact(this.pool, async (client) => {
      await client.query('UPDATE users SET password_hash = $2 WHERE id = $1', [
        userId,
        passwordHash,
      ])
      const sessionsEnded = await endSessions(client, userId, keepSession)
      await recordEvent(client, userId, 'password_changed', clientAddress, {
        sessions_ended: sessionsEnded,
      })
      return sessionsEnded
    })
  }

  /**
   * Changes the e-mail address (already normalised) and ends every other session; throws
   * EmailTakenError when another account has it.
   */
  async changeEmail(
    userId: string,
    email: string,
    keepSession: Buffer,
    clientAddress?: string,
  ): Promise<void> {
    try {
      await transact(this.pool, async (client) => {
        const { rows } = await client.query<{ email: string }>(
          'SELECT email FROM users WHERE id = $1 FOR UPDATE',
          [userId],
        )
        const from = rows[0]?.email
        if (from === undefined || from === email) return
        await client.query('UPDATE users SET email = $2 WHERE id = $1', [userId, email])
        await endSessions(client, userId, keepSession)
        await recordEvent(client, userId, 'email_changed', clientAddress, { from, to: email })
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw new EmailTakenError(email)
      throw error
    }
  }

  /**
   * Deletes the account and, through the foreign keys, everything it owns (keys, their usage
   * history, sessions, plan changes, activity log) in one transaction. Resolves to the ids of
   * its keys (to clear their counters), or undefined when there was no such user.
   */
  async delete(userId: string): Promise<string[] | undefined> {
    return transact(this.pool, async (client) => {
      const { rows } = await client.query<{ id: string }>(
        'SELECT id FROM api_keys WHERE user_id = $1',
        [userId],
      )
      const deleted = await client.query('DELETE FROM users WHERE id = $1', [userId])
      return deleted.rowCount ? rows.map((row) => row.id) : undefined
    })
  }
}
