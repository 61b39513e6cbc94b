import type { Plan } from '@repo/contracts'
import { transact } from '@repo/service-kit'
import type pg from 'pg'
import { generateApiKey } from './api-key.js'

export interface ApiKeyRow {
  id: string
  name: string
  display_prefix: string
  created_at: Date
  last_used_at: Date | null
  revoked_at: Date | null
}

/**
 * What authenticating a request needs about a key and its owner (one row, one query). Times
 * come as ISO 8601 strings, ready for the API's answers: they are formatted once per look-up
 * rather than once per request.
 */
export interface KeyIdentity {
  keyId: string
  keyName: string
  displayPrefix: string
  keyCreatedAt: string
  lastUsedAt: string | null
  userId: string
  email: string
  plan: Plan
  userCreatedAt: string
}

const ISO = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

export class KeyLimitError extends Error {
  override name = 'KeyLimitError'
}

const KEY_COLUMNS = 'id, name, display_prefix, created_at, last_used_at, revoked_at'

/** API keys: only their SHA-256 and a display prefix are stored, never the key. */
export class ApiKeys {
  constructor(
    private readonly pool: pg.Pool,
    /** Active keys a user may hold at once. */
    readonly maxActive: number,
  ) {}

  /** Creates a key and returns it in full: the only time it is ever available. */
  async create(userId: string, name: string): Promise<{ key: string; row: ApiKeyRow }> {
    return transact(this.pool, async (client) => {
      // Serialise key creation per user, so two concurrent requests cannot pass the cap.
      await client.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId])
      const { rows: active } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL',
        [userId],
      )
      if ((active[0]?.n ?? 0) >= this.maxActive) {
        throw new KeyLimitError(`You already have ${this.maxActive} active keys; revoke one first.`)
      }
      const generated = generateApiKey()
      const { rows } = await client.query<ApiKeyRow>(
        `INSERT INTO api_keys (user_id, name, display_prefix, key_hash) VALUES ($1, $2, $3, $4)
         RETURNING ${KEY_COLUMNS}`,
        [userId, name, generated.displayPrefix, generated.hash],
      )
      return { key: generated.key, row: rows[0] as ApiKeyRow }
    })
  }

  /** The user's keys, newest first, revoked ones included (marked). */
  async list(userId: string): Promise<ApiKeyRow[]> {
    const { rows } = await this.pool.query<ApiKeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE user_id = $1
       ORDER BY revoked_at IS NOT NULL, created_at DESC`,
      [userId],
    )
    return rows
  }

  /** One of the user's keys; another user's key is as good as nonexistent. */
  async get(userId: string, keyId: string): Promise<ApiKeyRow | undefined> {
    const { rows } = await this.pool.query<ApiKeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1 AND user_id = $2`,
      [keyId, userId],
    )
    return rows[0]
  }

  /** Revokes the user's key; returns its hash (to evict it from caches) or undefined. */
  async revoke(userId: string, keyId: string): Promise<Buffer | undefined> {
    const { rows } = await this.pool.query<{ key_hash: Buffer }>(
      `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
       WHERE id = $1 AND user_id = $2 RETURNING key_hash`,
      [keyId, userId],
    )
    return rows[0]?.key_hash
  }

  /** The active key with this hash, with its owner; undefined when unknown or revoked. */
  async identify(hash: Buffer): Promise<KeyIdentity | undefined> {
    const { rows } = await this.pool.query<KeyIdentity>(
      `SELECT k.id AS "keyId", k.name AS "keyName", k.display_prefix AS "displayPrefix",
              ${ISO('k.created_at')} AS "keyCreatedAt", ${ISO('k.last_used_at')} AS "lastUsedAt",
              u.id AS "userId", u.email, u.plan, ${ISO('u.created_at')} AS "userCreatedAt"
         FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    )
    return rows[0]
  }

  /** Writes last-use times in one statement (see LastUsedWriter). */
  async touch(times: Map<string, Date>): Promise<void> {
    if (times.size === 0) return
    await this.pool.query(
      `UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, t.at)
         FROM unnest($1::uuid[], $2::timestamptz[]) AS t(id, at) WHERE k.id = t.id`,
      [[...times.keys()], [...times.values()]],
    )
  }
}
