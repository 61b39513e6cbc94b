import type { Plan } from '@repo/contracts'
import { transact } from '@repo/service-kit'
import type pg from 'pg'
import { type EventOrigin, recordEvent } from './account-events.js'
import { generateApiKey } from './api-key.js'
import type { Clock } from './clock.js'

export interface ApiKeyRow {
  id: string
  name: string
  display_prefix: string
  created_at: Date
  last_used_at: Date | null
  revoked_at: Date | null
  expires_at: Date | null
  /** The key that replaced this one (a roll). */
  rolled_to: string | null
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
  /** When the key stops being accepted (ms since the epoch), checked on every request. */
  expiresAtMs: number | null
  userId: string
  email: string
  plan: Plan
  userCreatedAt: string
  /** The owner's account is disabled (the admin CLI): the key answers 403 ACCOUNT_DISABLED. */
  accountDisabled: boolean
}

const ISO = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

export class KeyLimitError extends Error {
  override name = 'KeyLimitError'
}

const KEY_COLUMNS =
  'id, name, display_prefix, created_at, last_used_at, revoked_at, expires_at, rolled_to'
/** A key still accepted at $2 (revoked keys never are; expired ones no longer). */
const ACCEPTED = 'revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)'

export interface Rolled {
  key: string
  /** The new key's hash (the key cache's name for it). */
  hash: Buffer
  row: ApiKeyRow
  /** The old key's hash (to evict it everywhere) and when it stops being accepted. */
  oldHash: Buffer
  oldUntil: Date
}

/** API keys: only their SHA-256 and a display prefix are stored, never the key. */
export class ApiKeys {
  constructor(
    private readonly pool: pg.Pool,
    /** Active keys a user may hold at once. */
    readonly maxActive: number,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates a key (expiring at `expiresAt`, or never) and returns it in full: the only time it is
   * ever available.
   */
  async create(
    userId: string,
    name: string,
    opts: { expiresAt?: Date | null; clientAddress?: string } = {},
  ): Promise<{ key: string; hash: Buffer; row: ApiKeyRow }> {
    const now = this.clock()
    return transact(this.pool, async (client) => {
      // Serialise key creation per user, so two concurrent requests cannot pass the cap.
      await client.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId])
      const { rows: active } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1 AND ${ACCEPTED}`,
        [userId, now],
      )
      if ((active[0]?.n ?? 0) >= this.maxActive) {
        throw new KeyLimitError(`You already have ${this.maxActive} active keys; revoke one first.`)
      }
      const generated = generateApiKey()
      // Created by the service's clock, the one expiries are reckoned with.
      const { rows } = await client.query<ApiKeyRow>(
        `INSERT INTO api_keys (user_id, name, display_prefix, key_hash, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
        [userId, name, generated.displayPrefix, generated.hash, opts.expiresAt ?? null, now],
      )
      const row = rows[0] as ApiKeyRow
      await recordEvent(client, userId, 'key_created', opts.clientAddress, {
        name,
        prefix: row.display_prefix,
        expires_at: row.expires_at?.toISOString() ?? null,
      })
      return { key: generated.key, hash: generated.hash, row }
    })
  }

  /** The user's keys: accepted ones first, then by creation, newest first. */
  async list(userId: string): Promise<ApiKeyRow[]> {
    const { rows } = await this.pool.query<ApiKeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE user_id = $1
       ORDER BY NOT (${ACCEPTED}), created_at DESC`,
      [userId, this.clock()],
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
  async revoke(userId: string, keyId: string, origin?: EventOrigin): Promise<Buffer | undefined> {
    return transact(this.pool, async (client) => {
      const { rows } = await client.query<{ key_hash: Buffer; name: string; prefix: string }>(
        `UPDATE api_keys SET revoked_at = now()
          WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL
          RETURNING key_hash, name, display_prefix AS prefix`,
        [keyId, userId],
      )
      const row = rows[0]
      if (!row) return undefined
      await recordEvent(client, userId, 'key_revoked', origin, {
        name: row.name,
        prefix: row.prefix,
      })
      return row.key_hash
    })
  }

  /** Renames the user's (unrevoked) key; returns its hash (to evict it) or undefined. */
  async rename(
    userId: string,
    keyId: string,
    name: string,
    clientAddress?: string,
  ): Promise<Buffer | undefined> {
    return transact(this.pool, async (client) => {
      const { rows } = await client.query<{ key_hash: Buffer; from: string; prefix: string }>(
        `UPDATE api_keys k SET name = $3 FROM api_keys old
          WHERE k.id = $1 AND k.user_id = $2 AND k.revoked_at IS NULL AND old.id = k.id
          RETURNING k.key_hash, old.name AS from, k.display_prefix AS prefix`,
        [keyId, userId, name],
      )
      const row = rows[0]
      if (!row) return undefined
      if (row.from !== name) {
        await recordEvent(client, userId, 'key_renamed', clientAddress, {
          prefix: row.prefix,
          from: row.from,
          to: name,
        })
      }
      return row.key_hash
    })
  }

  /**
   * Rolls an accepted key that was not rolled yet: a new key of the same name (and, when the old
   * one expires, the same lifetime from now), while the old one stays accepted for `graceMs` more
   * (0: not at all) and is then refused as expired. Undefined when there is no such key.
   */
  async roll(
    userId: string,
    keyId: string,
    graceMs: number,
    clientAddress?: string,
  ): Promise<Rolled | undefined> {
    const now = this.clock()
    return transact(this.pool, async (client) => {
      const { rows: found } = await client.query<ApiKeyRow & { key_hash: Buffer }>(
        `SELECT ${KEY_COLUMNS}, key_hash FROM api_keys
          WHERE id = $1 AND user_id = $3 AND rolled_to IS NULL AND ${ACCEPTED} FOR UPDATE`,
        [keyId, now, userId],
      )
      const old = found[0]
      if (!old) return undefined
      const lifetime = old.expires_at ? old.expires_at.getTime() - old.created_at.getTime() : null
      const generated = generateApiKey()
      const { rows } = await client.query<ApiKeyRow>(
        `INSERT INTO api_keys (user_id, name, display_prefix, key_hash, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
        [
          userId,
          old.name,
          generated.displayPrefix,
          generated.hash,
          lifetime === null ? null : new Date(now.getTime() + lifetime),
          now,
        ],
      )
      const row = rows[0] as ApiKeyRow
      const graceEnd = new Date(now.getTime() + graceMs)
      const oldUntil = old.expires_at && old.expires_at < graceEnd ? old.expires_at : graceEnd
      await client.query('UPDATE api_keys SET expires_at = $2, rolled_to = $3 WHERE id = $1', [
        old.id,
        oldUntil,
        row.id,
      ])
      await recordEvent(client, userId, 'key_rolled', clientAddress, {
        name: old.name,
        prefix: old.display_prefix,
        new_prefix: row.display_prefix,
        old_until: oldUntil.toISOString(),
      })
      return { key: generated.key, hash: generated.hash, row, oldHash: old.key_hash, oldUntil }
    })
  }

  /**
   * The unrevoked key with this hash, with its owner; undefined when unknown or revoked. Expired
   * keys are found (with their expiry), so the answer can say they expired.
   */
  async identify(hash: Buffer): Promise<KeyIdentity | undefined> {
    const { rows } = await this.pool.query<KeyIdentity>(
      `SELECT k.id AS "keyId", k.name AS "keyName", k.display_prefix AS "displayPrefix",
              ${ISO('k.created_at')} AS "keyCreatedAt", ${ISO('k.last_used_at')} AS "lastUsedAt",
              (extract(epoch FROM k.expires_at) * 1000)::float8 AS "expiresAtMs",
              u.id AS "userId", u.email, u.plan, ${ISO('u.created_at')} AS "userCreatedAt",
              u.disabled_at IS NOT NULL AS "accountDisabled"
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
