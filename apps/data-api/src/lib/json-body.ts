import type { IncomingMessage } from 'node:http'
import { HttpProblem } from '@repo/service-kit'
import secureJsonParse from 'secure-json-parse'
import { TurnQueue } from './turn-queue.js'

/**
 * The largest body a plan may send: twice its `data` limit (JSON escapes quotes, backslashes and
 * line breaks in two bytes) plus 64 KB for the envelope and options. `data` itself is then held
 * to the plan's limit exactly; a body past this allowance is refused before it is read.
 */
export function bodyAllowance(maxDataBytes: number): number {
  return maxDataBytes * 2 + 64 * 1024
}

function tooLarge(limit: number, declared?: number): HttpProblem {
  const size =
    declared === undefined ? 'more than' : `${declared.toLocaleString('en')} bytes; at most`
  return new HttpProblem(
    'PAYLOAD_TOO_LARGE',
    `The body is ${size} ${limit.toLocaleString('en')} bytes, which is what this key's plan accepts.`,
    // The rest of the body is not read: the connection closes after this answer.
    { extra: { max_body_bytes: limit }, headers: { connection: 'close' } },
  )
}

/**
 * A body larger than this is decoded in its own turn of the event loop, after the large bodies
 * that ended before it (TurnQueue), and parsed in a later one: eight 1 MB bodies ending together
 * would otherwise be read back to back, and a `/health` probe arriving behind them waited 32-90
 * ms (p99 over 16 runs; 11-45 ms in 21 runs with the queue, bench/README.md "Heavy input"). On a
 * slower VM a 1 MB body of English took 6.6-12.6 ms to decode and 8.2 to parse, and a probe waited
 * 80-141 ms with both in one turn, 57-86 with each in its own (five alternated runs each).
 * Smaller bodies (a 64 KB parse takes well under a millisecond) are parsed at once.
 */
export const TURN_PARSE_BYTES = 64 * 1024

const largeBodies = new TurnQueue()

/** The body's bytes as text, or the problem a client is told. */
function decode(chunks: Buffer[], received: number): string {
  const text = Buffer.concat(chunks, received).toString('utf8')
  if (text.trim() === '') {
    throw new HttpProblem('INVALID_REQUEST', 'The body is empty; send a JSON object.')
  }
  return text
}

/** The body's text as a JSON value, or the problem a client is told. */
function parse(text: string): unknown {
  try {
    return secureJsonParse.parse(text)
  } catch {
    throw new HttpProblem('INVALID_REQUEST', 'The body is not valid JSON.')
  }
}

/**
 * Reads a JSON body of at most `limit` bytes: a Content-Length over it is refused before
 * anything is read, and a body without one (chunked) is cut off as it passes it. Parsed with
 * secure-json-parse, as Fastify's own parser does (no `__proto__` or `constructor.prototype`);
 * a large body in its own turn of the event loop (TURN_PARSE_BYTES).
 */
export function readJsonBody(payload: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(payload.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(tooLarge(limit, declared))
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    const cleanUp = () => {
      payload.off('data', onData)
      payload.off('end', onEnd)
      payload.off('error', onError)
    }
    const onData = (chunk: Buffer) => {
      received += chunk.length
      if (received > limit) {
        cleanUp()
        payload.pause()
        reject(tooLarge(limit))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      cleanUp()
      if (received > TURN_PARSE_BYTES) {
        // Decoded in one turn and parsed in a later one (TURN_PARSE_BYTES).
        largeBodies
          .run(() => decode(chunks, received))
          .then((text) => largeBodies.run(() => parse(text)))
          .then(resolve, reject)
        return
      }
      try {
        resolve(parse(decode(chunks, received)))
      } catch (error) {
        reject(error)
      }
    }
    const onError = (error: Error) => {
      cleanUp()
      reject(error)
    }
    payload.on('data', onData)
    payload.on('end', onEnd)
    payload.on('error', onError)
  })
}
