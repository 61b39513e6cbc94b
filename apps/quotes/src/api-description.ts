// The OpenAPI document's front matter for the quotes service: what a client must know beyond the
// schemas.
import type { PlatformOptions } from '@repo/service-kit'

const API_DESCRIPTION = `
A public, read-only collection of quotations. No key, no sign-up.

**Formats.** Every URL answers in HTML, JSON or plain text by the \`Accept\` header, with
q-values honoured. No \`Accept\` header, or only \`*/*\` (curl, wget, most HTTP libraries), gets
plain text; a request naming none of the three gets HTML. Responses carry \`Vary: Accept\`.
The browser pages \`/\`, \`/q/{id}\` and \`/search\` are the same resources as \`/api\`,
\`/api/q/{id}\` and \`/api/search\`.

**Errors** are RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`
and the \`request_id\`, or a plain sentence, or an HTML page, by the same negotiation.
A problem's \`type\` (\`/problems/not-found\`) is a page on this service saying what the code
means and what to do; \`/problems\` lists them all.

**Fair use.** Send a \`User-Agent\` naming your library or site and a contact, and keep to 100
requests a minute. Nothing is refused for a missing User-Agent. A hard ceiling per client address
(1,000 a minute by default) answers 429 with \`Retry-After\` and \`X-RateLimit-*\` headers.
CORS is open to every origin for GET.

**Authors and tags.** \`/api/authors\` (paged, \`term\`, \`sort=name|count\`) and
\`/api/authors/{slug}\` list authors and their quotes; \`/api/tags\` lists tags with counts. The
random quote takes \`author\`, \`tag\`, \`minLength\` and \`maxLength\` filters (404 when none matches).
Paged lists and search pages carry an RFC 8288 \`Link\` header (first, prev, next, last).

**Quote of the day** at \`/api/today\`: the same quote for everyone during a UTC day, cacheable
until the next UTC midnight. **Share cards**: \`/q/{id}.svg\` and \`/q/{id}.png\` (1200×630);
quote pages carry Open Graph and Twitter card tags pointing at the PNG.

**Caching.** Quotes by id, share cards, author lists and pages, tags and search pages carry
\`Cache-Control\` and an \`ETag\`; send \`If-None-Match\` to get 304. The random quote is never
cacheable.
`.trim()

export const OPEN_API: PlatformOptions['openApi'] = {
  title: 'Quotes API',
  description: API_DESCRIPTION,
  tags: [
    {
      name: 'quotes',
      description: 'Random quote (filtered or not), quote by id, search, quote of the day',
    },
    { name: 'authors', description: 'Authors and their quotes' },
    { name: 'tags', description: 'Tags and their counts' },
    { name: 'cards', description: 'Share cards (SVG and PNG images of a quote)' },
  ],
}
