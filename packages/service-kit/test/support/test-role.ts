import { randomBytes } from 'node:crypto'
import { PG_ADMIN_URL, queryRows } from '../../src/testing/index.js'

export interface TestRole {
  name: string
  /** `url` (a database URL) as this role, without a password (the test server trusts it). */
  urlFor: (url: string) => string
  /** Drops the role (drop what it owns first). */
  drop: () => Promise<void>
}

/** A login role of the test's own, with `attributes` (e.g. `CREATEDB`). */
export async function createTestRole(attributes = ''): Promise<TestRole> {
  const name = `test_role_${randomBytes(4).toString('hex')}`
  await queryRows(PG_ADMIN_URL, `CREATE ROLE ${name} LOGIN ${attributes}`)
  return {
    name,
    urlFor: (url) => {
      const asRole = new URL(url)
      asRole.username = name
      return asRole.toString()
    },
    drop: async () => {
      await queryRows(PG_ADMIN_URL, `DROP ROLE IF EXISTS ${name}`)
    },
  }
}
