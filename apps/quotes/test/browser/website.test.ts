import { launchBrowser } from '@repo/service-kit/testing'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp
let browser: Browser
let page: Page
let base: string

beforeAll(async () => {
  t = await createTestApp('browser')
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
  browser = await launchBrowser()
  page = await browser.newPage()
})
afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe('the website in a real browser', () => {
  it('home page shows a random quote with its author, a permalink and "another one"', async () => {
    const response = await page.goto(`${base}/`)
    expect(response?.status()).toBe(200)
    expect(await page.locator('html').getAttribute('lang')).toBe('en')
    expect(await page.locator('figure.quote blockquote').innerText()).not.toBe('')
    expect(await page.locator('figure.quote figcaption').innerText()).toMatch(/^— \S/)
    expect(await page.getByRole('link', { name: /Permalink/ }).getAttribute('href')).toMatch(
      /^\/q\/q\d+$/,
    )
    expect(await page.getByRole('link', { name: 'Another one' }).isVisible()).toBe(true)
  })

  it('searches with the form, follows a pagination link and opens a permalink', async () => {
    await page.getByLabel('Search quotes and authors').fill('love')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/\/search\?term=love$/)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('love')
    expect(await page.locator('.results > li').count()).toBe(20)
    expect(await page.getByRole('status').innerText()).toMatch(/page 1 of \d+/)

    await page.getByRole('link', { name: /Next page/ }).click()
    await page.waitForURL(/page=2/)
    expect(await page.getByRole('status').innerText()).toMatch(/page 2 of/)
    expect(await page.getByRole('link', { name: /Previous page/ }).isVisible()).toBe(true)

    const first = page.locator('.results > li').first()
    const text = await first.locator('blockquote').innerText()
    await first.getByRole('link', { name: /Permalink to quote/ }).click()
    await page.waitForURL(/\/q\/q\d+$/)
    expect(await page.locator('figure.quote blockquote').innerText()).toBe(text)
  })

  it('works without JavaScript and fits a phone screen', async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 360, height: 740 },
    })
    try {
      const phone = await context.newPage()
      await phone.goto(`${base}/search?term=life`)
      expect(await phone.locator('.results > li').count()).toBeGreaterThan(0)
      const overflow = await phone.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      )
      expect(overflow).toBe(false)
    } finally {
      await context.close()
    }
  })

  it('loads its stylesheet under the content security policy', async () => {
    const blocked: string[] = []
    page.on('console', (msg) => {
      if (msg.text().includes('Content Security Policy')) blocked.push(msg.text())
    })
    await page.goto(`${base}/q/q1`)
    const color = await page.evaluate(
      () => getComputedStyle(document.querySelector('.button') as Element).backgroundColor,
    )
    expect(color).not.toBe('rgba(0, 0, 0, 0)')
    expect(blocked).toEqual([])
  })

  it('browses authors: the list, sorted by count, an author page with pagination, a random one', async () => {
    await page.goto(`${base}/`)
    await page
      .getByRole('navigation', { name: 'Site' })
      .getByRole('link', { name: 'Authors' })
      .click()
    await page.waitForURL(/\/authors$/)
    await page.getByLabel('Find an author').fill('einstein')
    await page.getByLabel('Sort by').selectOption('count')
    await page.getByRole('button', { name: 'Show' }).click()
    await page.waitForURL(/\/authors\?term=einstein&sort=count$/)
    await page.getByRole('link', { name: 'Albert Einstein' }).click()
    await page.waitForURL(/\/authors\/albert-einstein$/)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Albert Einstein')
    expect(await page.getByRole('status').innerText()).toMatch(/^73 quotes, page 1 of 4\./)
    await page.getByRole('link', { name: /Next page/ }).click()
    await page.waitForURL(/\/authors\/albert-einstein\?page=2$/)
    expect(await page.locator('.results > li').count()).toBe(20)
    await page.getByRole('link', { name: 'A random one' }).click()
    await page.waitForURL(/\/\?author=albert-einstein$/)
    expect(await page.locator('figure.quote figcaption').innerText()).toBe('— Albert Einstein')
  })

  it('shows tags on quotes and follows a tag to a random quote carrying it', async () => {
    await page.goto(`${base}/tags`)
    await page.getByRole('link', { name: 'Friendship' }).click()
    await page.waitForURL(/\/\?tag=friendship$/)
    const tags = page.getByRole('list', { name: 'Tags' })
    expect(await tags.getByRole('link', { name: 'friendship' }).isVisible()).toBe(true)
    await page.getByRole('link', { name: 'Another one' }).click()
    await page.waitForURL(/\/\?tag=friendship$/)
    expect(await tags.getByRole('link', { name: 'friendship' }).isVisible()).toBe(true)
  })

  it('shows the quote of the day and a share card with Open Graph tags', async () => {
    await page.goto(`${base}/today`)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(
      /^Quote of the day, \d{4}-\d{2}-\d{2}$/,
    )
    const image = await page.locator('meta[property="og:image"]').getAttribute('content')
    expect(image).toMatch(new RegExp(`^${base}/q/q\\d+\\.png$`))
    const card = await page.request.get(image as string)
    expect(card.status()).toBe(200)
    expect(card.headers()['content-type']).toBe('image/png')
    await page.getByRole('link', { name: 'Share card (PNG)' }).click()
    expect(page.url()).toBe(image)
  })

  it('highlights the searched term', async () => {
    await page.goto(`${base}/search?term=wisdom`)
    const marks = page.locator('.results mark')
    expect(await marks.count()).toBeGreaterThan(0)
    expect((await marks.first().innerText()).toLowerCase()).toBe('wisdom')
  })

  it('shows a helpful page for an unknown quote', async () => {
    const response = await page.goto(`${base}/q/q99999999`)
    expect(response?.status()).toBe(404)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Not found')
  })
})
