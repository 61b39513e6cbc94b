import type { Plan } from '@repo/contracts'
import { transact } from '@repo/service-kit'
import type pg from 'pg'

export interface User {
  id: string
  email: string
  plan: Plan
  created_at: Date
  plan_changed_at: Date
}

interface UserWithHash extends User {
  password_hash: string
}

const USER_COLUMNS = 'id, email, plan, created_at, plan_changed_at'

export class EmailTakenError extends Error {
  override name = 'EmailTakenError'
}

/** Users and their plans. Every plan change is recorded with its time. */
export class Accounts {
  constructor(private readonly pool: pg.Pool) {}

  async create(email: string, passwordHash: string, plan: Plan): Promise<User> {
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
        return user
      })
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new EmailTakenError(email)
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

  /**
   * Changes the plan now and records the change; a no-op when the plan is the same. Resolves to
   * whether the plan changed, or undefined when there is no such user.
   */
  async changePlan(userId: string, plan: Plan): Promise<boolean | undefined> {
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
      }
      return from !== plan
    })
  }
}
