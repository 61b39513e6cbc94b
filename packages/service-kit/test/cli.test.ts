import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { Type } from 'typebox'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CliError, commandLog, runCommand, UsageError, withCommandStores } from '../src/cli.js'
import { baseConfigProperties, ConfigError, loadConfig } from '../src/config.js'
import { UnreachableError } from '../src/migrate.js'
import { freePort } from '../src/testing/index.js'

// The frame of the commands people run: --help, parsing, one clear line for failures they can
// act on, a stack trace for the rest, and exit codes 0, 1 and 2. Run in this process: what it
// prints is captured, and the exit it schedules (a second later) is caught.

let out: string[]
let err: string[]
let exits: Array<number | string | null | undefined>
beforeEach(() => {
  out = []
  err = []
  exits = []
  vi.useFakeTimers({ toFake: ['setTimeout'] })
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0)
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0)
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    exits.push(code)
    return undefined as never
  })
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  process.exitCode = undefined
})

const spec = {
  name: 'svc seed',
  help: '\n  Usage: svc seed [--count N]\n\n',
  options: { count: { type: 'string' as const, short: 'c' } },
}

/** Runs the command and what exits it schedules; returns the exit code it set. */
async function run(
  argv: string[],
  main: (args: {
    values: { count?: string }
    positionals: string[]
  }) => Promise<void> = async () => {},
  positionals = false,
) {
  exits.length = 0
  await runCommand({ ...spec, positionals }, main, argv)
  const code = process.exitCode
  expect(exits).toEqual([])
  vi.advanceTimersByTime(999)
  expect(exits).toEqual([])
  vi.advanceTimersByTime(1)
  expect(exits).toEqual([code])
  return code
}

describe('runCommand', () => {
  it('runs main with the parsed options and exits 0', async () => {
    const seen: unknown[] = []
    expect(await run(['--count', '3'], async (args) => void seen.push(args))).toBe(0)
    expect(await run(['-c', '4'], async (args) => void seen.push(args.values))).toBe(0)
    expect(seen).toEqual([{ values: { count: '3' }, positionals: [] }, { count: '4' }])
    expect(err).toEqual([])
  })

  it('prints the help, trimmed, for --help or -h and runs nothing', async () => {
    const main = vi.fn(async () => {})
    expect(await run(['--help'], main)).toBe(0)
    expect(await run(['-h', 'extra'], main)).toBe(0)
    expect(main).not.toHaveBeenCalled()
    expect(out).toEqual(['Usage: svc seed [--count N]\n', 'Usage: svc seed [--count N]\n'])
  })

  it('refuses unknown options and arguments with exit code 2 and a pointer to --help', async () => {
    expect(await run(['--bogus'])).toBe(2)
    expect(await run(['stray'])).toBe(2)
    expect(err).toEqual([
      "svc seed: Unknown option '--bogus'\nRun it with --help for usage.\n",
      'svc seed: unexpected argument "stray"\nRun it with --help for usage.\n',
    ])
  })

  it('takes arguments when the command allows them', async () => {
    const seen: string[][] = []
    expect(await run(['a', 'b'], async (args) => void seen.push(args.positionals), true)).toBe(0)
    expect(seen).toEqual([['a', 'b']])
  })

  it('reports a failure the person can act on in one line, with exit code 1', async () => {
    const failures = [
      new CliError('no such account'),
      new ConfigError('DATABASE_URL: must match'),
      new UnreachableError('Postgres is not reachable at postgres://x'),
      Object.assign(new Error('password authentication failed'), { code: '28P01' }),
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    ]
    for (const failure of failures) {
      expect(
        await run([], async () => {
          throw failure
        }),
      ).toBe(1)
    }
    expect(err).toEqual(failures.map((failure) => `svc seed: ${failure.message}\n`))
  })

  it('prints the stack of anything unexpected', async () => {
    const bug = new TypeError('x is undefined')
    const odd = Object.assign(new Error('odd'), { code: 'not-a-sqlstate' })
    // Codes that only look like a SQLSTATE (a number, or five characters inside a longer code).
    const numeric = Object.assign(new Error('numeric'), { code: 12345 })
    const longer = Object.assign(new Error('longer'), { code: 'x28P01' })
    const trailing = Object.assign(new Error('trailing'), { code: '28P01x' })
    for (const failure of [bug, odd, numeric, longer, trailing, 'a string', undefined]) {
      expect(
        await run([], async () => {
          throw failure
        }),
      ).toBe(1)
    }
    expect(err).toEqual([
      `svc seed: unexpected error\n${bug.stack}\n`,
      `svc seed: unexpected error\n${odd.stack}\n`,
      `svc seed: unexpected error\n${numeric.stack}\n`,
      `svc seed: unexpected error\n${longer.stack}\n`,
      `svc seed: unexpected error\n${trailing.stack}\n`,
      'svc seed: unexpected error\na string\n',
      'svc seed: unexpected error\nundefined\n',
    ])
  })

  it('names its errors, as their stack traces show', () => {
    expect(new CliError('x').name).toBe('CliError')
    expect(new UsageError('x').name).toBe('UsageError')
  })
})

describe('commandLog', () => {
  it('prints a line per message, with its details after it', () => {
    commandLog.info({ database: 'quotes', count: 3, list: ['a'] }, 'created')
    commandLog.warn({}, 'careful')
    commandLog.info({ only: 'details' })
    expect(err).toEqual([
      'created (database=quotes count=3 list=["a"])\n',
      'warning: careful\n',
      ' (only=details)\n',
    ])
  })
})

describe('withCommandStores', () => {
  const schema = Type.Object(baseConfigProperties({ port: 3100, database: 'svc' }))

  it('runs on the configured stores when they answer, and says nothing', async () => {
    vi.useRealTimers()
    const config = loadConfig(schema, { REDIS_URL: `redis://127.0.0.1:${await freePort()}` })
    const seen = await withCommandStores(
      'svc',
      { ...config, EMBEDDED_STORES: 'off' },
      async (c, e) => [c, e],
    )
    expect(seen).toEqual([{ ...config, EMBEDDED_STORES: 'off' }, { redis: false }])
    expect(err).toEqual([])
  })

  it('runs on the embedded Postgres when none answers, says so, and closes it after', async () => {
    vi.useRealTimers()
    const dataDir = mkdtempSync(join(tmpdir(), 'kit-cli-'))
    try {
      const config = loadConfig(schema, {
        DATABASE_URL: `postgres://127.0.0.1:${await freePort()}/svc`,
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
        EMBEDDED_DATA_DIR: dataDir,
      })
      let url = ''
      const embedded = await withCommandStores('svc', config, async (resolved, stores) => {
        url = resolved.DATABASE_URL
        const client = new pg.Client({ connectionString: url })
        await client.connect()
        await client.end()
        return stores
      })
      expect(embedded).toEqual({ redis: true })
      expect(err).toEqual([
        `warning: no Postgres configured (DATABASE_URL) or answering: using the embedded one in ${join(dataDir, 'svc', 'pglite')}, as the service does (stop the service first: PGlite serves one process at a time)\n`,
      ])
      const after = new pg.Client({ connectionString: url })
      await expect(after.connect()).rejects.toThrow()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)

  it('closes the stores when the work fails', async () => {
    vi.useRealTimers()
    const config = loadConfig(schema, { EMBEDDED_STORES: 'off' })
    await expect(
      withCommandStores('svc', config, async () => {
        throw new UsageError('bad')
      }),
    ).rejects.toThrow('bad')
  })
})
