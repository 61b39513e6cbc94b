import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * A strong ETag from the FNV-1a hash of a representation. Quotes compute theirs once, when they
 * enter memory; search pages and HTML pages hash their body (a few hundred bytes to a few KB).
 */
export function etagOf(body: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < body.length; i += 1) {
    hash ^= body.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return `"${(hash >>> 0).toString(36)}-${body.length.toString(36)}"`
}

/** True when If-None-Match names this ETag (or `*`): the client's copy is current. */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  if (header === etag || header === '*') return true
  return header.split(',').some((tag) => {
    const trimmed = tag.trim()
    return trimmed === etag || trimmed === `W/${etag}`
  })
}

/** Sends `body` with its ETag, or 304 Not Modified when the client already has it. */
export function sendCacheable(
  request: FastifyRequest,
  reply: FastifyReply,
  etag: string,
  body: string | Buffer,
): FastifyReply {
  reply.header('etag', etag)
  if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send()
  return reply.send(body)
}
