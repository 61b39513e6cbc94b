import { fileURLToPath } from 'node:url'
import { createTestDatabase, runScript, type TestDatabase } from '@repo/service-kit/testing'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The quotes commands as people run them (`pnpm --filter @repo/quotes <command>`): child processes
// on the TypeScript sources, on a database of their own.

const appDir = fileURLToPath(new URL('../..', import.meta.url))
let db: TestDatabase

beforeAll(async () => {
  db = await createTestDatabase('quotes_commands')
})
afterAll(async () => {
  await db?.drop()
})

const run = (script: string, ...args: string[]) =>
  runScript(appDir, `src/scripts/${script}.ts`, args, {
    DATABASE_URL: db.url,
    EMBEDDED_STORES: 'off',
  })

async function synthetic(): Promise<number> {
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  try {
    const { rows } = await client.query(
      "SELECT count(*)::int AS n FROM quotes WHERE source = 'synthetic'",
    )
    return rows[0].n
  } finally {
    await client.end()
  }
}

describe('quotes commands', { timeout: 180_000 }, () => {
  it('migrate and seed the database, then load-synthetic adds quotes with progress and removes them', async () => {
    const migrate = await run('migrate')
    expect(migrate.code, migrate.stderr).toBe(0)
    expect(migrate.stderr).toMatch(/seeded quotes \(inserted=\d+/)
    const seed = await run('seed')
    expect(seed.code, seed.stderr).toBe(0)
    expect(seed.stderr).toContain('re-seeded quotes (running services pick this up')

    const load = await run('load-synthetic', '1200')
    expect(load.code, load.stderr).toBe(0)
    // Not a terminal: progress lines rather than a redrawn bar, the last one complete.
    expect(load.stderr).toMatch(/quotes \[[█░]+\] 100% \| 1,200\/1,200/)
    expect(await synthetic()).toBe(1200)

    const remove = await run('load-synthetic', '--remove')
    expect(remove.code, remove.stderr).toBe(0)
    expect(remove.stderr).toContain('removed synthetic quotes (removed=1200)')
    expect(await synthetic()).toBe(0)
  })

  it('answers --help, wrong usage with exit code 2 and a database that does not answer with 1', async () => {
    for (const script of ['migrate', 'seed', 'load-synthetic']) {
      const help = await run(script, '--help')
      expect(help.code).toBe(0)
      expect(help.stdout).toContain(`Usage: pnpm --filter @repo/quotes ${script}`)
    }
    for (const args of [[], ['ten'], ['0'], ['5', '--remove'], ['--fast']]) {
      const result = await run('load-synthetic', ...args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toContain('Run it with --help for usage.')
    }
    expect((await run('seed', 'extra')).code).toBe(2)

    const down = await runScript(appDir, 'src/scripts/seed.ts', [], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/quotes',
      EMBEDDED_STORES: 'off',
    })
    expect(down.code).toBe(1)
    expect(down.stderr).toBe(
      'quotes seed: Postgres is not reachable at postgres://postgres@127.0.0.1:1/quotes: connect ECONNREFUSED 127.0.0.1:1\n',
    )
  })
})
