import { createTestDatabase } from '@repo/service-kit/testing'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { AccountEvents } from '../../src/lib/account-events.js'
import { Accounts } from '../../src/lib/accounts.js'
import { ApiKeys } from '../../src/lib/api-keys.js'
import type { Clock } from '../../src/lib/clock.js'
import { prepareDatabase } from '../../src/lib/database.js'
import { Sessions } from '../../src/lib/sessions.js'

/**
 * The data service's stores on a fresh, migrated database of their own (no app, no Redis): for
 * tests of the stores themselves. `close()` ends the pool and drops the database.
 */
export async function startStores(label: string, clock: Clock = () => new Date()) {
  const db = await createTestDatabase(label)
  await prepareDatabase(db.url)
  const pool = new pg.Pool({ connectionString: db.url, max: 8 })
  // A client still closing when close() drops the database is terminated by the server.
  pool.on('error', () => {})
  let n = 0
  const stores = {
    pool,
    accounts: new Accounts(pool),
    events: new AccountEvents(pool),
    keys: new ApiKeys(pool, 3, clock),
    sessions: new Sessions(pool),
    /** A new FREE account with a unique e-mail address. */
    user: (plan: 'FREE' | 'PRO' = 'FREE') =>
      stores.accounts.create(`${label}-${++n}@example.com`, `hash-${n}`, plan),
    /** The user's events, oldest first: kind, actor, client address, detail. */
    eventsOf: async (userId: string) =>
      (
        await pool.query(
          'SELECT kind, actor, client_address, detail FROM account_events WHERE user_id = $1 ORDER BY id',
          [userId],
        )
      ).rows,
    close: async () => {
      await pool.end()
      await db.drop()
    },
  }
  return stores
}

export type Stores = Awaited<ReturnType<typeof startStores>>

/** The stores of one test file: filled in before its tests, closed after them. */
export function useStores(label: string, clock?: Clock): Stores {
  const stores = {} as Stores
  beforeAll(async () => {
    Object.assign(stores, await startStores(label, clock))
  }, 60_000)
  afterAll(async () => {
    await stores.close?.()
  })
  return stores
}
