import { readdirSync } from 'node:fs'
import { createTestDatabase, queryRows } from '@repo/service-kit/testing'
import { describe, expect, it } from 'vitest'
import { prepareDatabase } from '../../src/lib/database.js'
import { paths } from '../../src/paths.js'

describe('prepareDatabase', () => {
  it('creates the database, applies every migration once, and says so in the log it is given', async () => {
    const db = await createTestDatabase('prepare')
    await db.drop() // prepareDatabase creates it
    try {
      const lines: [object, string | undefined][] = []
      const log = { info: (obj: object, msg?: string) => lines.push([obj, msg]), warn() {} }
      await prepareDatabase(db.url, log)
      const migrations = readdirSync(paths.migrations)
        .filter((f) => f.endsWith('.sql'))
        .map((f) => f.replace(/\.sql$/, ''))
      expect(lines).toEqual([
        [{ database: db.name }, 'created database'],
        [{ migrations }, 'applied migrations'],
      ])
      lines.length = 0
      await prepareDatabase(db.url, log)
      await prepareDatabase(db.url)
      expect(lines).toEqual([])
      const tables = await queryRows<{ n: number }>(
        db.url,
        "SELECT count(*)::int AS n FROM pg_tables WHERE tablename IN ('users', 'api_keys', 'sessions')",
      )
      expect(tables[0]?.n).toBe(3)
    } finally {
      await db.drop()
    }
  })
})
