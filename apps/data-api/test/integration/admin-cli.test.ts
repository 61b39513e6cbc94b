import { fileURLToPath } from 'node:url'
import { runScript, TEST_REDIS_URL, waitFor } from '@repo/service-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StrengthTimeoutError } from '../../src/lib/password-strength.js'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

// The admin CLI run as operators run it (`pnpm --filter @repo/data-api admin ...`: a child process
// on the TypeScript sources), against the database and Redis prefix of two running instances of
// the service that both keep keys cached in memory.

const appDir = fileURLToPath(new URL('../..', import.meta.url))
let first: TestApp
let second: TestApp

beforeAll(async () => {
  first = await createTestApp('admin_cli')
  second = await createTestApp('admin_cli', { shareWith: first })
  // The first password check loads zxcvbn's dictionaries in a worker: on a loaded machine that
  // may pass the check's 10 s budget, which would refuse the first sign-up. Load them first.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await first.app.passwordStrength.check('warm up the dictionaries', [])
      break
    } catch (error) {
      if (!(error instanceof StrengthTimeoutError) || attempt === 3) throw error
    }
  }
}, 90_000)
afterAll(async () => {
  await second?.close()
  await first?.close()
})

function admin(...args: string[]) {
  return runScript(appDir, 'src/scripts/admin.ts', args, {
    DATABASE_URL: first.db.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: first.redis.prefix,
    EMBEDDED_STORES: 'off',
  })
}

async function adminJson(...args: string[]) {
  const result = await admin(...args, '--json')
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return JSON.parse(result.stdout)
}

/** The status of a GET with the key on each instance (each then has it cached). */
const statuses = async (key: string) => [
  (await callData(first.app, key)).statusCode,
  (await callData(second.app, key)).statusCode,
]

async function account(label: string, plan = 'FREE') {
  const email = uniqueEmail(label)
  const client = new DashboardClient(first.app)
  expect((await client.signUp(email, plan)).statusCode).toBe(303)
  const key = await client.createKey('production')
  const prefix = key.slice(0, 11)
  return { email, client, key, prefix }
}

/** The account's activity log, newest first, as the dashboard shows it. */
async function activity(client: DashboardClient) {
  return (await client.get('/dashboard/activity')).body
}

describe('admin CLI', { timeout: 180_000 }, () => {
  it('shows an account, its keys and today’s usage per key, human-readable and as JSON', async () => {
    const { email, key, prefix } = await account('show', 'PRO')
    for (let i = 0; i < 3; i += 1) expect((await callData(first.app, key)).statusCode).toBe(200)

    const report = await adminJson('user', email.toUpperCase())
    expect(report).toMatchObject({ email, plan: 'PRO', disabled: false, disabled_at: null })
    expect(report.keys).toEqual([
      expect.objectContaining({
        name: 'production',
        prefix,
        state: 'active',
        expires_at: null,
        used_today: 3,
        daily_limit: 10_000,
      }),
    ])

    const human = await admin('user', email)
    expect(human.code).toBe(0)
    expect(human.stdout).toContain(`Account   ${email}`)
    expect(human.stdout).toMatch(new RegExp(`${prefix}…\\s+production\\s+active\\s+never`))
    expect(human.stdout).toContain('3 / 10,000')
  })

  it('resets a key’s count for today: the next request counts from 1 again', async () => {
    const { email, client, key, prefix } = await account('reset')
    for (let i = 0; i < 5; i += 1) await callData(first.app, key)
    const reset = await adminJson('reset', email, prefix)
    expect(reset).toMatchObject({ action: 'reset', changed: true })
    expect(reset.message).toContain('from 5 to 0')
    expect((await adminJson('user', email)).keys[0].used_today).toBe(0)
    const next = await callData(second.app, key)
    expect(next.json().quota).toMatchObject({ used: 1, remaining: 999 })
    expect(await activity(client)).toContain('today’s count reset (it was 5) (by an administrator)')
  })

  it('disables an account: its key answers 403 ACCOUNT_DISABLED on every instance, it cannot log in; enable undoes it', async () => {
    const { email, client, key } = await account('disable')
    expect(await statuses(key)).toEqual([200, 200])

    expect(await adminJson('disable', email)).toMatchObject({ action: 'disable', changed: true })
    // Both instances had the key cached: the eviction reaches them over Redis pub/sub.
    await waitFor('the key refused on both instances', async () => {
      const [a, b] = await statuses(key)
      return a === 403 && b === 403
    })
    const refused = await callData(second.app, key)
    expect(refused.json()).toMatchObject({ status: 403, code: 'ACCOUNT_DISABLED' })
    expect(refused.headers.ratelimit).toBeUndefined()
    // The session ended, and logging in again is refused with a clear message.
    expect((await client.get('/dashboard')).statusCode).toBe(303)
    const login = await client.logIn(email)
    expect(login.statusCode).toBe(403)
    expect(login.body).toContain('This account has been disabled by an administrator')
    expect((await adminJson('user', email)).disabled).toBe(true)
    // Disabling again changes nothing.
    expect(await adminJson('disable', email)).toMatchObject({ changed: false })

    expect(await adminJson('enable', email)).toMatchObject({ action: 'enable', changed: true })
    await waitFor('the key accepted on both instances', async () => {
      const [a, b] = await statuses(key)
      return a === 200 && b === 200
    })
    expect((await client.logIn(email)).statusCode).toBe(303)
    const log = await activity(client)
    expect(log).toContain(
      'Account disabled; its keys are refused and 1 session(s) ended (by an administrator)',
    )
    expect(log).toContain('Account enabled again (by an administrator)')
  })

  it('changes a plan and revokes a key, on every instance at once', async () => {
    const { email, client, key, prefix } = await account('plan')
    expect(await statuses(key)).toEqual([200, 200])

    expect(await adminJson('plan', email, 'enterprise')).toMatchObject({ changed: true })
    await waitFor('the new plan on both instances', async () => {
      const limits = await Promise.all(
        [first, second].map(async (app) => (await callData(app.app, key)).json().quota.limit),
      )
      return limits.every((limit) => limit === 100_000)
    })

    const revoked = await adminJson('revoke', email, `${prefix}…`)
    expect(revoked).toMatchObject({ action: 'revoke', changed: true })
    await waitFor('the key refused on both instances', async () => {
      const [a, b] = await statuses(key)
      return a === 401 && b === 401
    })
    const again = await admin('revoke', email, prefix)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('already revoked')
    const log = await activity(client)
    expect(log).toContain('Plan changed from FREE to ENTERPRISE (by an administrator)')
    expect(log).toMatch(/Key “production” \(sk_\w+…\) revoked \(by an administrator\)/)
  })

  it('answers wrong usage with exit code 2 and failures with exit code 1, without a stack trace', async () => {
    const help = await admin('--help')
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: pnpm --filter @repo/data-api admin <command>')

    for (const args of [
      [],
      ['frobnicate'],
      ['user'],
      ['plan', 'a@example.com', 'GOLD'],
      ['user', 'a@b.c', '--color'],
    ]) {
      const result = await admin(...args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toContain('Run it with --help for usage.')
    }

    const unknown = await admin('user', 'nobody@example.com')
    expect(unknown).toMatchObject({ code: 1, stdout: '' })
    expect(unknown.stderr).toBe(
      'data-api admin: no account has the e-mail address "nobody@example.com"\n',
    )

    const down = await runScript(appDir, 'src/scripts/admin.ts', ['user', 'a@example.com'], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/data_api',
      EMBEDDED_STORES: 'off',
    })
    expect(down.code).toBe(1)
    expect(down.stderr).toMatch(/^data-api admin: .*ECONNREFUSED/)
    expect(down.stderr).not.toMatch(/\n\s+at /)
  })
})
