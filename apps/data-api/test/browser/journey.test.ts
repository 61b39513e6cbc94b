import { PLAN_LIMITS } from '@repo/contracts'
import { launchBrowser } from '@repo/service-kit/testing'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp
let browser: Browser
let context: BrowserContext
let page: Page
let base: string

beforeAll(async () => {
  t = await createTestApp('journey')
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
  browser = await launchBrowser()
  context = await browser.newContext()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
  page = await context.newPage()
})
afterAll(async () => {
  await browser?.close()
  await t?.close()
})

async function apiGet(key: string) {
  const res = await fetch(`${base}/api/v1/data`, { headers: { authorization: `Bearer ${key}` } })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

async function usageCell() {
  return (await page.locator('#keys tbody tr').first().locator('td.usage').innerText()).trim()
}

describe('the whole journey in a real browser', () => {
  it('sign up on PRO, create a key, read it once, use it, watch usage, revoke it', async () => {
    await page.goto(`${base}/`)
    await page.getByRole('link', { name: 'Sign up' }).first().click()
    await page.getByLabel('E-mail').fill(uniqueEmail('browser'))
    await page.getByLabel('Password').fill('correct horse battery staple')
    await page.getByRole('radio', { name: /PRO/ }).check()
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.waitForURL(`${base}/dashboard`)
    expect(await page.locator('#current-plan').innerText()).toBe('PRO')

    await page.getByLabel('New key name').fill('browser key')
    await page.getByRole('button', { name: 'Create key' }).click()
    const key = await page.getByLabel('API key').inputValue()
    expect(key).toMatch(/^sk_[0-9A-Za-z]{38}$/)
    expect(await page.getByRole('alert').innerText()).toContain('only time it is shown')
    await page.getByRole('button', { name: 'Copy' }).click()
    await page.locator('.copy-status', { hasText: /Copied|Ctrl\+C/ }).waitFor({ timeout: 5_000 })
    const copied = await page.evaluate(() => navigator.clipboard.readText()).catch(() => undefined)
    if (copied !== undefined) expect(copied).toBe(key)

    const first = await apiGet(key)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      user: { plan: 'PRO' },
      quota: { limit: PLAN_LIMITS.PRO.dailyRequests, used: 1 },
    })

    await page.getByRole('link', { name: /back to the dashboard/ }).click()
    expect(await page.content()).not.toContain(key)
    expect(await usageCell()).toBe('1 / 10,000')
    await apiGet(key)
    await apiGet(key)
    await page.reload()
    expect(await usageCell()).toBe('3 / 10,000')

    await page.getByRole('link', { name: 'Revoke browser key' }).click()
    await page.getByRole('button', { name: 'Revoke key' }).click()
    await page.waitForURL(`${base}/dashboard`)
    expect(await page.getByRole('status').innerText()).toContain('is revoked')
    const after = await apiGet(key)
    expect(after.status).toBe(401)
    expect(after.body).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('shows form errors without JavaScript and keeps the address typed', async () => {
    const noJs = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 375, height: 700 },
    })
    try {
      const p = await noJs.newPage()
      await p.goto(`${base}/signup`)
      await p.getByLabel('E-mail').fill('someone@example.com')
      await p.getByLabel('Password').fill('tooshort12')
      await p.getByLabel('Password').evaluate((el) => el.removeAttribute('minlength'))
      await p.getByLabel('Password').fill('aaaaaaaaaaaa')
      await p.getByRole('button', { name: 'Sign up' }).click()
      expect(await p.getByRole('alert').innerText()).toContain('too weak')
      expect(await p.getByLabel('E-mail').inputValue()).toBe('someone@example.com')
      const overflow = await p.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      )
      expect(overflow).toBe(false)
    } finally {
      await noJs.close()
    }
  })
})
