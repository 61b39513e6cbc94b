import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { at, dayName } from '../support/days.js'
import { createTestApp, movableClock, type TestApp } from '../support/test-app.js'

// The usage history in the dashboard: SVG charts with their numbers, and CSV downloads.

const clock = movableClock(at(1, '12:00:00'))
let t: TestApp
let client: DashboardClient
let keys: { key: string; id: string }[]

beforeAll(async () => {
  t = await createTestApp('usage_pages', {
    clock,
    env: { HOUSEKEEPING_INTERVAL_SECONDS: '0' },
  })
  client = new DashboardClient(t.app)
  await client.signUp(uniqueEmail('charts'))
  keys = []
  for (const name of ['=cmd|"calc"', 'second, key']) {
    const key = await client.createKey(name)
    keys.push({ key, id: (await callData(t.app, key)).json().key.id })
  }
  // Day 1: 1 + 2 and 1 requests; day 2: 3 more with the first key; rolled on day 3.
  for (let i = 0; i < 2; i += 1) await callData(t.app, keys[0]?.key as string)
  clock.now = at(2, '12:00:00')
  for (let i = 0; i < 3; i += 1) await callData(t.app, keys[0]?.key as string)
  clock.now = at(3, '06:00:00')
  await t.app.housekeeping.runOnce()
  await callData(t.app, keys[1]?.key as string)
})
afterAll(async () => {
  await t?.close()
})

const range = `from=${dayName(1)}&to=${dayName(3)}`

describe('usage pages', () => {
  it('draw a key’s days as an SVG chart with the numbers in a table', async () => {
    const res = await client.get(`/dashboard/keys/${keys[0]?.id}/usage?${range}`)
    expect(res.statusCode).toBe(200)
    expect(res.body).toMatch(
      /<svg [^>]*role="img"[^>]*aria-labelledby="key-usage-title key-usage-desc"/,
    )
    expect(res.body).toContain(`data-date="${dayName(1)}" data-requests="3"`)
    expect(res.body).toContain(`data-date="${dayName(2)}" data-requests="3"`)
    expect(res.body).toContain(`data-date="${dayName(3)}" data-requests="0"`)
    expect(res.body).toContain('<summary>The numbers</summary>')
    expect(res.body).toContain(`<tr><th scope="row">${dayName(2)}</th><td>3</td></tr>`)
    expect(res.body).toContain('id="usage-total">6<')
  })

  it('add up every key for the account, today live', async () => {
    const res = await client.get(`/dashboard/usage?${range}`)
    expect(res.body).toContain(`data-date="${dayName(1)}" data-requests="4"`)
    expect(res.body).toContain(`data-date="${dayName(3)}" data-requests="1"`)
    expect(res.body).toContain('id="usage-total">8<')
    // Default: the last 30 days to today.
    const recent = await client.get('/dashboard/usage')
    expect(recent.body.match(/<rect class="bar"/g)).toHaveLength(30)
  })

  it('download as CSV, per key and per account, quoted and formula-safe', async () => {
    const perKey = await client.get(`/dashboard/keys/${keys[0]?.id}/usage.csv?${range}`)
    expect(perKey.statusCode).toBe(200)
    expect(perKey.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(perKey.headers['content-disposition']).toMatch(/^attachment; filename="usage-sk_/)
    expect(perKey.body).toBe(
      `date,requests\r\n${dayName(1)},3\r\n${dayName(2)},3\r\n${dayName(3)},0\r\n`,
    )
    const account = await client.get(`/dashboard/usage.csv?${range}`)
    const lines = account.body.trim().split('\r\n')
    expect(lines[0]).toBe('date,key_id,key_name,key_prefix,requests')
    expect(lines).toHaveLength(1 + 3 * 2)
    expect(account.body).toContain(`${dayName(1)},${keys[0]?.id},"'=cmd|""calc""",`)
    expect(account.body).toContain(`${dayName(3)},${keys[1]?.id},"second, key",`)
  })

  it('refuse a bad range: the page with a message, the download with a 400', async () => {
    for (const query of [
      `from=${dayName(3)}&to=${dayName(1)}`,
      'from=2026-02-30',
      'from=yesterday',
      'from=a&from=b',
      `from=${dayName(-500)}&to=${dayName(1)}`,
      'to=%zz',
    ]) {
      const page = await client.get(`/dashboard/usage?${query}`)
      expect(page.statusCode, query).toBe(400)
      expect(page.body).toContain('id="form-error"')
      const csv = await client.get(`/dashboard/usage.csv?${query}`)
      expect(csv.statusCode, query).toBe(400)
    }
  })

  it('are for the signed-in only', async () => {
    const anonymous = new DashboardClient(t.app)
    for (const path of ['/dashboard/usage', '/dashboard/usage.csv']) {
      const res = await anonymous.get(path)
      expect(res.statusCode).toBe(303)
      expect(res.headers.location).toBe('/login')
    }
  })
})
