import { connect } from 'node:net'
import fc from 'fast-check'

/*
 * Hostile requests for property-based fuzz tests over real HTTP: what a stranger can put in a
 * path, a query string, headers and a body, sent as raw bytes (no client library tidying it up).
 */

/** Text with what breaks naive code: NUL and other controls, lone surrogates, odd Unicode. */
export const hostileText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom(
    '',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\u202e',
    '\ufeff',
    '%',
    '%00',
    '%zz',
    '%ED%A0%80',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '{"__proto__":{"x":1}}',
    'a'.repeat(5_000),
    '0',
    '-1',
    '1e400',
    'NaN',
  ),
)

/** Percent-encodes what must be, leaves some escapes broken on purpose. */
const urlPiece = fc.oneof(
  hostileText.map((text) => encodeURIComponent(text.isWellFormed() ? text : 'x')),
  fc.string({ unit: fc.constantFrom(...'abc=&%+;[]019AFz'.split('')), maxLength: 30 }),
)

export const hostileQuery = (names: string[]) =>
  fc
    .array(fc.tuple(fc.constantFrom(...names, 'other', `${names[0]}[]`), urlPiece), {
      maxLength: 5,
    })
    .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'))

export const hostilePathSegment = urlPiece.map((piece) => piece.replaceAll('/', '%2F'))

/** Header values that are legal on the wire (no CR/LF) but otherwise anything. */
const headerValue = fc
  .oneof(
    fc.string({ unit: fc.constantFrom(...' abc=;,*/q0.9-"\'%\t'.split('')), maxLength: 40 }),
    fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
  )
  .map((value) => value.replace(/[\r\n]/g, ''))

export const hostileHeaders = (extra: Record<string, fc.Arbitrary<string>> = {}) =>
  fc.record(
    {
      accept: fc.oneof(
        headerValue,
        fc.constantFrom('application/json', 'text/html', 'text/plain', '*/*'),
      ),
      'content-type': fc.oneof(
        headerValue,
        fc.constantFrom(
          'application/json',
          'application/x-www-form-urlencoded',
          'text/plain',
          'multipart/form-data; boundary=x',
          'application/json; charset=latin1',
        ),
      ),
      'x-request-id': headerValue,
      'x-forwarded-for': headerValue,
      'x-forwarded-proto': headerValue,
      cookie: headerValue,
      'if-none-match': headerValue,
      origin: headerValue,
      ...extra,
    },
    { requiredKeys: [] },
  )

export const hostileMethod = fc.constantFrom(
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'OPTIONS',
  'PATCH',
)

export const hostileJson = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('', '{', '{"data":', 'null', '[]', '{"__proto__":{"polluted":true}}'),
)

export interface RawRequest {
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}

/**
 * Sends one request as raw bytes on a new connection (`Connection: close`) and resolves with the
 * response's status code (0 when the server closed the connection without answering).
 */
export function sendRaw(port: number, request: RawRequest, timeoutMs = 10_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port })
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no answer within ${timeoutMs} ms to ${request.method} ${request.path}`))
    }, timeoutMs)
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1')
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]
      resolve(status ? Number(status) : 0)
    })
    const body = request.body === undefined ? undefined : Buffer.from(request.body)
    const lines = [
      `${request.method} ${request.path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Connection: close',
      ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
      ...(body ? [`Content-Length: ${body.length}`] : []),
    ]
    socket.write(`${lines.join('\r\n')}\r\n\r\n`)
    if (body) socket.write(body)
  })
}
