import secureJsonParse from 'secure-json-parse'

/*
 * A JSON body's bytes to its value, as the service reads every body: on its own thread for small
 * bodies (json-body.ts), on a feature thread for large ones (features/body-task.ts). No Fastify
 * here: a feature thread loads this module.
 */

/** A body that is not a JSON value; its message is what the client is told. */
export class BodyTextError extends Error {}

/**
 * The body's value: its bytes decoded as UTF-8 (a malformed sequence becomes U+FFFD, as Node's
 * `toString` makes it) and parsed with secure-json-parse, as Fastify's own parser does (no
 * `__proto__` or `constructor.prototype`). Throws BodyTextError for an empty body or one that
 * is not JSON.
 */
export function jsonBodyValue(bytes: Uint8Array): unknown {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  if (text.trim() === '') throw new BodyTextError('The body is empty; send a JSON object.')
  try {
    return secureJsonParse.parse(text)
  } catch {
    throw new BodyTextError('The body is not valid JSON.')
  }
}
