import { PLAN_LIMITS, UsageResponse } from '@repo/contracts'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QuotaStore } from '../../src/lib/quota.js'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { at, dayName } from '../support/days.js'
import { createTestApp, movableClock, type TestApp } from '../support/test-app.js'

// The usage history: counted in Redis beside the quota, rolled into Postgres after midnight by
// whichever instance gets there first, exactly once. Two instances share one movable clock.

const clock = movableClock(at(1, '10:00:00'))
const env = { HOUSEKEEPING_INTERVAL_SECONDS: '0' }
let first: TestApp
let second: TestApp
/** A key used on two days no instance rolled in time (set by the catch-up test). */
let downtimeKey = ''

beforeAll(async () => {
  first = await createTestApp('usage', { clock, env })
  second = await createTestApp('usage', { clock, env, shareWith: first })
})
afterAll(async () => {
  await second?.close()
  await first?.close()
})

async function newKey(label: string) {
  const client = new DashboardClient(first.app)
  await client.signUp(uniqueEmail(label))
  const key = await client.createKey(label)
  const id = (await callData(first.app, key)).json().key.id as string
  return { client, key, id }
}

async function calls(app: TestApp, key: string, n: number) {
  for (let i = 0; i < n; i += 1) expect((await callData(app.app, key)).statusCode).toBe(200)
}

async function usageRows(keyId: string) {
  const { rows } = await first.app.pg.query(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, requests FROM usage_daily WHERE key_id = $1
      ORDER BY day`,
    [keyId],
  )
  return rows
}

const flushBoth = () => Promise.all([first.app.lastUsed.flush(), second.app.lastUsed.flush()])

function usage(app: TestApp, key: string, query = '') {
  return app.app.inject({
    url: `/api/v1/usage${query}`,
    headers: { authorization: `Bearer ${key}` },
  })
}

describe('usage history', () => {
  it('counts a shadow key beside the quota, kept two days after the day', async () => {
    clock.now = at(1, '10:00:00')
    const { key, id } = await newKey('shadow')
    await calls(second, key, 2)
    const shadow = QuotaStore.usageKey(id, dayName(1))
    expect(await first.app.redis.get(shadow)).toBe('3')
    expect(await first.app.redis.get(QuotaStore.key(id, dayName(1)))).toBe('3')
    expect(await first.app.redis.call('EXPIRETIME', shadow)).toBe(
      at(4, '00:00:00').getTime() / 1000,
    )
  })

  it('rolls a finished day exactly once when two instances race, with the right count', async () => {
    clock.now = at(1, '12:00:00')
    const { key, id } = await newKey('race')
    await calls(first, key, 2)
    await calls(second, key, 3)
    await flushBoth()

    // Just after midnight the day is left to settle.
    clock.now = at(2, '00:00:30')
    const early = await first.app.housekeeping.runOnce()
    expect(early.usage.rolled.map((r) => r.day)).not.toContain(dayName(1))
    expect(await usageRows(id)).toEqual([])

    clock.now = at(2, '00:05:00')
    const [a, b] = await Promise.all([
      first.app.housekeeping.runOnce(),
      second.app.housekeeping.runOnce(),
    ])
    const written = [...a.usage.rolled, ...b.usage.rolled]
      .filter((r) => r.day === dayName(1))
      .reduce((sum, r) => sum + r.written, 0)
    // 6 requests: the first GET of newKey and 5 more. Exactly one row, whoever wrote it.
    expect(await usageRows(id)).toEqual([{ day: dayName(1), requests: 6 }])
    expect(written).toBeGreaterThanOrEqual(1)
    const { rows } = await first.app.pg.query(
      'SELECT count(*)::int AS n FROM usage_daily WHERE key_id = $1',
      [id],
    )
    expect(rows[0].n).toBe(1)

    // The day is marked: later runs leave it alone.
    const again = await second.app.housekeeping.runOnce()
    expect(again.usage.rolled).toEqual([])
    // Even rolling it by hand writes nothing twice.
    const { UsageRollup } = await import('../../src/lib/usage-rollup.js')
    const rollup = new UsageRollup(first.app.pg, first.app.quota, { clock })
    expect((await rollup.rollDay(dayName(1))).written).toBe(0)
    expect(await usageRows(id)).toEqual([{ day: dayName(1), requests: 6 }])
  })

  it('catches up two days back after downtime, from the shadow counts', async () => {
    clock.now = at(3, '09:00:00')
    const { key, id } = await newKey('downtime')
    downtimeKey = key
    await calls(first, key, 1)
    clock.now = at(4, '18:00:00')
    await calls(second, key, 4)
    await flushBoth()

    clock.now = at(5, '03:00:00')
    const run = await first.app.housekeeping.runOnce()
    expect(run.usage.rolled.map((r) => r.day)).toEqual([dayName(3), dayName(4)])
    expect(await usageRows(id)).toEqual([
      { day: dayName(3), requests: 2 },
      { day: dayName(4), requests: 4 },
    ])
  })

  it('answers GET /api/v1/usage with past days from Postgres and today live', async () => {
    clock.now = at(5, '08:00:00')
    const res = await usage(second, downtimeKey, '?days=4')
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json()
    expect(Value.Check(UsageResponse, body), res.body).toBe(true)
    expect(body).toMatchObject({ from: dayName(2), to: dayName(5), total: 7 })
    expect(body.key.prefix).toBe(downtimeKey.slice(0, 11))
    // Today's count is this request (it is counted like every /api/v1 request).
    expect(body.days).toEqual([
      { date: dayName(2), requests: 0 },
      { date: dayName(3), requests: 2 },
      { date: dayName(4), requests: 4 },
      { date: dayName(5), requests: 1 },
    ])
    const { dailyRequests } = PLAN_LIMITS.FREE
    expect(body.quota).toMatchObject({
      used: 1,
      remaining: dailyRequests - 1,
      limit: dailyRequests,
    })
    expect(res.headers.ratelimit).toMatch(`r=${dailyRequests - 1}`)
    expect(res.headers['cache-control']).toBe('no-store')
  })

  it('reads a finished day not yet rolled from Redis', async () => {
    clock.now = at(5, '23:00:00')
    const { key } = await newKey('unrolled')
    await calls(first, key, 1)
    clock.now = at(6, '00:00:10')
    const res = await usage(first, key, '?days=2')
    expect(res.json().days).toEqual([
      { date: dayName(5), requests: 2 },
      { date: dayName(6), requests: 1 },
    ])
  })

  it("takes today's count from the caller when it has it, and Redis's for the other keys", async () => {
    clock.now = at(7, '09:00:00')
    const known = await newKey('known-today')
    const other = await newKey('other-today')
    await calls(first, known.key, 2)
    await calls(first, other.key, 3)
    const today = dayName(7)
    const series = await first.app.usageHistory.series(
      [known.id, other.id],
      today,
      today,
      new Map([[known.id, 42]]),
    )
    // 42: what the caller passed (the quota check it just made), not Redis's 3 (2 + newKey's 1).
    expect(series.perKey.get(known.id)).toEqual([42])
    expect(series.perKey.get(other.id)).toEqual([4])
  })

  it('defaults to 30 days and refuses any other days than 1 to 90', async () => {
    const { key } = await newKey('params')
    const res = await usage(first, key)
    expect(res.json().days).toHaveLength(30)
    const queries = ['?days=0', '?days=91', '?days=1.5', '?days=1e1', '?days=0x10', '?days=']
    for (const query of [...queries, '?days=1&days=2', '?days=%zz', '?days=-1']) {
      const bad = await usage(first, key, query)
      expect(bad.statusCode, query).toBe(400)
      expect(bad.json().code, query).toBe('INVALID_REQUEST')
    }
    expect((await usage(first, key, '?days=90')).json().days).toHaveLength(90)
  })

  it('purges rows older than about 400 days', async () => {
    clock.now = at(7, '12:00:00')
    const { id } = await newKey('purge')
    await first.app.pg.query(
      'INSERT INTO usage_daily (key_id, day, requests) VALUES ($1, $2, 5), ($1, $3, 7)',
      [id, dayName(7 - 401), dayName(7 - 399)],
    )
    await first.app.housekeeping.runOnce()
    expect(await usageRows(id)).toEqual([{ day: dayName(7 - 399), requests: 7 }])
  })
})
