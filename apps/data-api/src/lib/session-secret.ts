import { randomBytes } from 'node:crypto'
import type pg from 'pg'

/**
 * The secret that signs the dashboard's cookies: SESSION_SECRET when set; otherwise one made by
 * whichever replica starts first and kept in Postgres, so every replica (and every restart) uses
 * the same one and nothing fixed ever sits in the repository or a compose file.
 */
export async function sessionSecret(pool: pg.Pool, configured: string | undefined) {
  if (configured) return { secret: configured, source: 'SESSION_SECRET' as const }
  // Two statements: the read must see a secret another replica committed meanwhile.
  await pool.query(
    "INSERT INTO app_secrets (name, value) VALUES ('session', $1) ON CONFLICT (name) DO NOTHING",
    [randomBytes(48).toString('base64url')],
  )
  const { rows } = await pool.query<{ value: string }>(
    "SELECT value FROM app_secrets WHERE name = 'session'",
  )
  const secret = rows[0]?.value
  if (!secret) throw new Error('could not read or store the session secret')
  return { secret, source: 'postgres' as const }
}
