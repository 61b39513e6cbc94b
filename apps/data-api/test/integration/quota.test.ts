import { PLAN_LIMITS } from '@repo/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QuotaStore } from '../../src/lib/quota.js'
import { callData, parseRateLimit } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, movableClock, type TestApp } from '../support/test-app.js'

// Days after today: Redis expires keys by its own, real clock, so injected days must be future.
const DAY = 86_400_000
const today = Date.UTC(
  new Date().getUTCFullYear(),
  new Date().getUTCMonth(),
  new Date().getUTCDate(),
)
const at = (days: number, time: string) =>
  new Date(`${new Date(today + days * DAY).toISOString().slice(0, 10)}T${time}Z`)
const dayName = (days: number) => new Date(today + days * DAY).toISOString().slice(0, 10)
const clock = movableClock(at(1, '23:59:58'))
let t: TestApp

beforeAll(async () => {
  t = await createTestApp('quota', { clock })
})
afterAll(async () => {
  await t?.close()
})

describe('daily quota', () => {
  it('counts per key per UTC day under a key that expires at the next UTC midnight', async () => {
    clock.now = at(1, '23:59:58')
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('day'))
    const key = await client.createKey()
    const res = await callData(t.app, key)
    const id = res.json().key.id
    const redisKey = QuotaStore.key(id, dayName(1))
    expect(await t.app.redis.get(redisKey)).toBe('1')
    // EXPIRETIME is absolute: it must be exactly midnight UTC, whatever the server's clock.
    expect(await t.app.redis.call('EXPIRETIME', redisKey)).toBe(at(2, '00:00:00').getTime() / 1000)
    expect(res.json().quota.resets_at).toBe(at(2, '00:00:00').toISOString())
    expect(parseRateLimit(res.headers.ratelimit).t).toBe(2)
  })

  it('exhausts at the plan limit and starts again after midnight', async () => {
    clock.now = at(1, '23:59:30')
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('rollover'))
    const key = await client.createKey()
    const statuses = new Map<number, number>()
    const { dailyRequests } = PLAN_LIMITS.FREE
    for (let i = 0; i < dailyRequests + 5; i += 1) {
      const res = await callData(t.app, key)
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: dailyRequests, 429: 5 })

    clock.now = at(2, '00:00:01')
    const next = await callData(t.app, key)
    expect(next.statusCode).toBe(200)
    expect(next.json().quota).toMatchObject({
      used: 1,
      remaining: dailyRequests - 1,
      resets_at: at(3, '00:00:00').toISOString(),
    })
  })

  it('applies a plan change to the next request', async () => {
    clock.now = at(2, '12:00:00')
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('upgrade'))
    const key = await client.createKey()
    expect((await callData(t.app, key)).headers['ratelimit-policy']).toBe(
      `"daily";q=${PLAN_LIMITS.FREE.dailyRequests};w=86400`,
    )
    const changed = await client.changePlan('ENTERPRISE')
    expect(changed.statusCode).toBe(303)
    const after = await callData(t.app, key)
    expect(after.headers['ratelimit-policy']).toBe(
      `"daily";q=${PLAN_LIMITS.ENTERPRISE.dailyRequests};w=86400`,
    )
    expect(after.json()).toMatchObject({
      user: { plan: 'ENTERPRISE' },
      quota: { used: 2, limit: PLAN_LIMITS.ENTERPRISE.dailyRequests },
    })

    const { rows } = await t.app.pg.query(
      `SELECT from_plan, to_plan, changed_at FROM plan_changes pc JOIN users u ON u.id = pc.user_id
        WHERE u.id = $1 ORDER BY pc.id`,
      [after.json().user.id],
    )
    expect(rows.map((r) => [r.from_plan, r.to_plan])).toEqual([
      [null, 'FREE'],
      ['FREE', 'ENTERPRISE'],
    ])
    expect(rows[1].changed_at).toBeInstanceOf(Date)
  })
})
