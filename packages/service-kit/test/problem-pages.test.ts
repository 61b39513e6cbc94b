import { PROBLEM_CODES, PROBLEM_DOCS, type ProblemCode, problemType } from '@repo/contracts'
import Fastify from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import openApiPlugin from '../src/plugins/openapi.js'
import problemPages from '../src/plugins/problem-pages.js'

// The pages a problem's `type` points at: /problems lists every code, /problems/<slug> explains
// one. HTML, escaped, cached for a day.

const SERVICE = `Quotes & "Data" <API> 'beta'`
const ESCAPED_SERVICE = 'Quotes &amp; &quot;Data&quot; &lt;API&gt; &#39;beta&#39;'
const CODES = Object.keys(PROBLEM_CODES) as ProblemCode[]

// An app per test (not one for the file): the pages are rendered at registration, and what a
// test runs, mutation testing can tell apart.
let app: ReturnType<typeof Fastify>
beforeEach(async () => {
  app = Fastify()
  await app.register(problemPages, { service: SERVICE })
  await app.ready()
})
afterEach(async () => {
  await app.close()
})

async function page(url: string) {
  const response = await app.inject({ url })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
  expect(response.headers['cache-control']).toBe('public, max-age=86400')
  return response.body
}

describe('problem pages', () => {
  it('lists every code with its status, meaning and a link to its page', async () => {
    const html = await page('/problems')
    expect(html).toContain(`<title>Problem codes · ${ESCAPED_SERVICE}</title>`)
    expect(html).toContain('<h1>Problem codes</h1>')
    for (const code of CODES) {
      expect(html).toContain(
        `<tr><td><a href="${problemType(code)}"><code>${code}</code></a></td><td>${PROBLEM_CODES[code]}</td>`,
      )
    }
    // A doc's `code spans` become <code> elements.
    expect(html).toContain('<td>The body is not <code>application/json</code>.</td>')
    expect(html).not.toContain('`')
    // One row a line.
    expect(html.match(/<\/tr>\n\s+<tr><td>/g)).toHaveLength(CODES.length - 1)
  })

  it('explains each code on its own page', async () => {
    for (const code of CODES) {
      const html = await page(problemType(code))
      const doc = PROBLEM_DOCS[code]
      expect(html).toContain(`<h1>${doc.title}</h1>`)
      expect(html).toContain(`<title>${doc.title} · ${ESCAPED_SERVICE}</title>`)
      expect(html).toContain(`<dt>Code</dt><dd><code>${code}</code></dd>`)
      expect(html).toContain(`<dt>HTTP status</dt><dd>${PROBLEM_CODES[code]}</dd>`)
      expect(html).toContain(`<dt>Problem type</dt><dd><code>${problemType(code)}</code></dd>`)
      expect(html).toContain('<a href="/problems">Every problem code</a>')
    }
  })

  it('escapes what it shows, inside code spans too', async () => {
    const html = await page(problemType('UNAUTHORIZED'))
    expect(html).toContain('<code>Authorization: Bearer &lt;key&gt;</code>')
    expect(html).not.toContain('<key>')
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/)
  })

  it('keeps the pages out of the API document, and is registered by name', async () => {
    const documented = Fastify()
    await documented.register(openApiPlugin, {
      title: 't',
      description: 'd',
      version: '1',
      tags: [],
    })
    await documented.register(problemPages, { service: SERVICE })
    await documented.ready()
    expect((documented.swagger() as { paths: object }).paths).toEqual({})
    expect(documented.hasPlugin('problem-pages')).toBe(true)
    await documented.close()
  })

  it('has no page for a code that does not exist (the app answers those)', async () => {
    expect((await app.inject({ url: '/problems/no-such-code' })).statusCode).toBe(404)
  })
})
