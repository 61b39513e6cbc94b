import { setTimeout as sleep } from 'node:timers/promises'
import { ProblemError, unwrap } from '@repo/client'
import { type DataInfoResponse, PLAN_LIMITS } from '@repo/contracts'
import { beforeAll, describe, expect, it } from 'vitest'
import { dataApi } from './support/clients.js'
import { DashboardBrowser, uniqueEmail } from './support/dashboard.js'
import { callData, parseRateLimit } from './support/data-api.js'
import { expectProblem, pool } from './support/http.js'

const FREE_DAILY = PLAN_LIMITS.FREE.dailyRequests
const CONCURRENCY = 20

let key = ''

beforeAll(async () => {
  const browser = new DashboardBrowser()
  await browser.signUp(uniqueEmail('quota'), 'FREE')
  key = (await browser.createKey('e2e quota')).key
})

describe('daily quota of a FREE key', () => {
  it('admits exactly 1,000 requests a day, then answers 429 with Retry-After', {
    timeout: 120_000,
  }, async () => {
    let first = await callData(key)
    expect(first.status).toBe(200)
    // All 1,000 requests must fall within one UTC day: next to midnight, wait for the new one.
    const { t } = parseRateLimit(first.headers.get('ratelimit'))
    if (t < 30) {
      await sleep((t + 2) * 1000)
      first = await callData(key)
    }
    expect(first.headers.get('ratelimit-policy')).toBe(`"daily";q=${FREE_DAILY};w=86400`)
    const info = first.json<DataInfoResponse>()
    expect(info.quota).toMatchObject({ limit: FREE_DAILY, used: 1, remaining: FREE_DAILY - 1 })

    // The other 999, 20 at a time: every one is admitted, and the remaining counts they report
    // are exactly 998..0 (checked and counted atomically, whatever the interleaving).
    const started = Date.now()
    const answers = await pool(FREE_DAILY - 1, CONCURRENCY, async () => {
      const res = await callData(key)
      return { status: res.status, ratelimit: res.headers.get('ratelimit') }
    })
    const elapsed = Date.now() - started
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    const remaining = answers.map((a) => parseRateLimit(a.ratelimit).r).sort((a, b) => a - b)
    expect(remaining).toEqual(Array.from({ length: FREE_DAILY - 1 }, (_, i) => i))
    expect(elapsed).toBeLessThan(60_000)

    // The 1,001st request of the day.
    const refused = await callData(key, { data: 'one more', options: { feature: 'stats' } })
    const problem = expectProblem(refused, 429, 'QUOTA_EXCEEDED')
    expect(problem).toMatchObject({ limit: FREE_DAILY, used: FREE_DAILY })
    expect(new Date(String(problem.resets_at)).getTime()).toBe(
      new Date(info.quota.resets_at).getTime(),
    )
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(86_400)
    expect(refused.headers.get('ratelimit')).toMatch(/^"daily";r=0;t=\d+$/)
    expect(refused.headers.get('ratelimit-policy')).toBe(`"daily";q=${FREE_DAILY};w=86400`)

    // The typed client hands a quota refusal back at once: its Retry-After (until midnight UTC)
    // is longer than the client waits, so it is not retried.
    const started429 = Date.now()
    const thrown = await unwrap(dataApi(key).GET('/api/v1/data')).catch((error: unknown) => error)
    expect(thrown).toBeInstanceOf(ProblemError)
    expect(thrown).toMatchObject({ status: 429, code: 'QUOTA_EXCEEDED' })
    expect((thrown as ProblemError).retryAfter).toBeGreaterThan(10)
    expect((thrown as ProblemError).rateLimit).toMatchObject({ remaining: 0, limit: FREE_DAILY })
    expect(Date.now() - started429).toBeLessThan(5_000)

    // Refusals are not counted: the next one says the same.
    const again = await callData(key)
    expect(expectProblem(again, 429, 'QUOTA_EXCEEDED')).toMatchObject({ used: FREE_DAILY })
  })
})
