// vitest-bound helpers (beforeAll/afterAll): imported through '@repo/service-kit/vitest' by test
// files only, so that '@repo/service-kit/testing' stays usable outside vitest (bench, scripts).
import { afterAll, beforeAll } from 'vitest'
import { type PgBouncer, startPgBouncer } from './pgbouncer.js'
import { createTestDatabase, type TestDatabase } from './stores.js'

/**
 * Something a test file starts once before its tests and stops after them; the getter throws
 * when asked before it started (a failed beforeAll).
 */
function useOnce<T>(start: () => Promise<T>, stop: (value: T) => Promise<unknown>): () => T {
  let value: T | undefined
  beforeAll(async () => {
    value = await start()
  }, 60_000)
  afterAll(async () => {
    if (value !== undefined) await stop(value)
  })
  return () => {
    if (value === undefined) throw new Error('not started: see the failed beforeAll')
    return value
  }
}

/** A PgBouncer of the file's own, pooling to the test Postgres. */
export const usePgBouncer = (): (() => PgBouncer) =>
  useOnce(startPgBouncer, (bouncer) => bouncer.stop())

/** A new empty database of the file's own (named after `label`), dropped afterwards. */
export const useTestDatabase = (label: string): (() => TestDatabase) =>
  useOnce(
    () => createTestDatabase(label),
    (db) => db.drop(),
  )
