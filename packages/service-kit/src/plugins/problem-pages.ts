import { PROBLEM_CODES, PROBLEM_DOCS, type ProblemCode, problemType } from '@repo/contracts'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

const CODES = Object.keys(PROBLEM_CODES) as ProblemCode[]

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string)
/** The docs' `code spans` as <code>, everything else escaped. */
const prose = (text: string) =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_match, inner: string) => `<code>${inner}</code>`)

function page(service: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · ${escapeHtml(service)}</title>
  <link rel="stylesheet" href="/static/style.css">
</head>
<body>
  <main id="main">
${body}
    <p><a href="/problems">Every problem code</a> · <a href="/docs">API reference</a></p>
  </main>
</body>
</html>
`
}

function codePage(service: string, code: ProblemCode): string {
  const doc = PROBLEM_DOCS[code]
  return page(
    service,
    doc.title,
    `    <h1>${escapeHtml(doc.title)}</h1>
    <dl>
      <dt>Code</dt><dd><code>${code}</code></dd>
      <dt>HTTP status</dt><dd>${PROBLEM_CODES[code]}</dd>
      <dt>Problem type</dt><dd><code>${escapeHtml(problemType(code))}</code></dd>
    </dl>
    <h2>What it means</h2>
    <p>${prose(doc.meaning)}</p>
    <h2>What to do</h2>
    <p>${prose(doc.action)}</p>`,
  )
}

function indexPage(service: string): string {
  const rows = CODES.map(
    (code) =>
      `      <tr><td><a href="${escapeHtml(problemType(code))}"><code>${code}</code></a></td><td>${PROBLEM_CODES[code]}</td><td>${prose(PROBLEM_DOCS[code].meaning)}</td></tr>`,
  ).join('\n')
  return page(
    service,
    'Problem codes',
    `    <h1>Problem codes</h1>
    <p>Errors are RFC 9457 problem details (<code>application/problem+json</code>). Their
    <code>type</code> is the address of the code's page below; switch on <code>code</code>.</p>
    <table>
      <thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead>
      <tbody>
${rows}
      </tbody>
    </table>`,
  )
}

/**
 * The pages problem `type`s point at: /problems lists every code, /problems/<code> says what it
 * means and what to do. Rendered once at start (they only change with the code). The `type`
 * of a problem is a path on the service that answered, so each service serves them.
 */
const problemPages: FastifyPluginAsync<{ service: string }> = async (fastify, opts) => {
  const index = indexPage(opts.service)
  const html = 'text/html; charset=utf-8'
  const cache = 'public, max-age=86400'

  fastify.get('/problems', { schema: { hide: true } }, (_request, reply) =>
    reply.type(html).header('cache-control', cache).send(index),
  )
  // A route per code: any other name is the service's own 404 (registered later, by the app).
  for (const code of CODES) {
    const body = codePage(opts.service, code)
    fastify.get(problemType(code), { schema: { hide: true } }, (_request, reply) =>
      reply.type(html).header('cache-control', cache).send(body),
    )
  }
}

export default fp(problemPages, { name: 'problem-pages', fastify: '5.x' })
