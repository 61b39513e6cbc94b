import { launchBrowser } from '@repo/service-kit/testing'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp
let browser: Browser
let page: Page
let base: string

beforeAll(async () => {
  t = await createTestApp('account_browser')
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
})
afterAll(async () => {
  await browser?.close()
  await t?.close()
})

const apiStatus = async (key: string, path = '/api/v1/data') =>
  (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } })).status

const keyRow = (name: string, state: string) =>
  page.locator(`#keys tbody tr[data-state="${state}"]`, { hasText: name })

describe('keys and the account in a real browser', () => {
  it('create a key with an expiry, roll it, see the chart, change the password, read the activity', async () => {
    await page.goto(`${base}/signup`)
    await page.getByLabel('E-mail').fill(uniqueEmail('account-browser'))
    await page.getByLabel('Password').fill('password123')
    await page.getByRole('button', { name: 'Sign up' }).click()
    // zxcvbn's feedback on the form, the address kept.
    expect(await page.getByRole('alert').innerText()).toContain('too weak')
    expect(await page.locator('#password-suggestions li').count()).toBeGreaterThan(0)
    await page.getByLabel('Password').fill('correct horse battery staple')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.waitForURL(`${base}/dashboard`)

    await page.getByLabel('New key name').fill('expiring key')
    await page.getByLabel('Expires').selectOption('30')
    await page.getByRole('button', { name: 'Create key' }).click()
    expect(await page.locator('#key-expiry').innerText()).toMatch(/This key expires/)
    const first = await page.getByLabel('API key').inputValue()
    expect(await apiStatus(first)).toBe(200)
    await page.getByRole('link', { name: /back to the dashboard/ }).click()
    expect(await keyRow('expiring key', 'expiring').locator('td.state').innerText()).toMatch(
      /Active, expires/,
    )

    await page.getByRole('link', { name: 'Roll expiring key' }).click()
    await page.getByRole('radio', { name: '1 hour' }).check()
    await page.getByRole('button', { name: 'Roll key' }).click()
    expect(await page.locator('#roll-note').innerText()).toMatch(/accepted until/)
    const second = await page.getByLabel('API key').inputValue()
    expect(second).not.toBe(first)
    expect(await apiStatus(first)).toBe(200)
    expect(await apiStatus(second)).toBe(200)
    expect(await apiStatus(second, '/api/v1/usage?days=7')).toBe(200)
    await page.getByRole('link', { name: /back to the dashboard/ }).click()
    expect(await keyRow('expiring key', 'grace').locator('td.state').innerText()).toMatch(
      /Rolled: accepted until/,
    )
    expect(await keyRow('expiring key', 'expiring').count()).toBe(1)

    await keyRow('expiring key', 'expiring')
      .getByRole('link', { name: /^Usage of/ })
      .click()
    const chart = page.getByRole('img', { name: /Usage of “expiring key”/ })
    await chart.waitFor()
    expect(await chart.locator('rect.bar').count()).toBe(30)
    await page.getByText('The numbers').click()
    const today = new Date().toISOString().slice(0, 10)
    expect(
      await page.locator('#usage-table tr', { hasText: today }).locator('td').innerText(),
    ).toBe('2')
    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download CSV' }).click()
    expect((await download).suggestedFilename()).toMatch(/^usage-sk_.*\.csv$/)

    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Account' })
      .click()
    await page.getByLabel('Current password').fill('correct horse battery staple')
    await page.getByLabel('New password').fill('marble kettle umbrella orbit')
    await page.getByRole('button', { name: 'Change password' }).click()
    expect(await page.getByRole('status').innerText()).toContain('Your password is changed')

    await page.getByRole('link', { name: 'Activity log' }).click()
    const kinds = await page
      .locator('#activity tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-kind')))
    expect(kinds).toEqual(['password_changed', 'key_rolled', 'key_created', 'account_created'])
    expect(await page.locator('#activity').innerText()).toContain('127.0.0.1')
  })
})
