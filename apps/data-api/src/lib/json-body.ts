import type { IncomingMessage } from 'node:http'
import { HttpProblem } from '@repo/service-kit'
import type { BodyReading, DataApart } from '../features/body-task.js'
import { BodyTextError, jsonBodyValue } from './json-text.js'

/**
 * The largest body a plan may send: twice its `data` limit (JSON escapes quotes, backslashes and
 * line breaks in two bytes) plus 64 KB for the envelope and options. `data` itself is then held
 * to the plan's limit exactly; a body past this allowance is refused before it is read.
 */
export function bodyAllowance(maxDataBytes: number): number {
  return maxDataBytes * 2 + 64 * 1024
}

/** The problem a client is told of a body that is not a JSON value (BodyTextError's message). */
function invalid(message: string): HttpProblem {
  return new HttpProblem('INVALID_REQUEST', message)
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
 * A body larger than this is not read on the service's thread: its bytes go to a feature thread,
 * which decodes and parses it (features/body-task.ts), and the service's thread gets the value
 * back with its `data`'s text still as bytes. Read here, a megabyte of English took 6.6-12.6 ms
 * to decode and 8.2 to parse on a slow VM, and eight such bodies together held `/health` probes
 * up for 57-141 ms (bench/README.md, "Heavy input"). Smaller bodies (a 64 KB parse takes well
 * under a millisecond) are parsed at once.
 */
export const LARGE_BODY_BYTES = 64 * 1024

/** A body over LARGE_BODY_BYTES, as it came: to be read on a feature thread. */
export class LargeJsonBody {
  constructor(readonly bytes: Uint8Array) {}
}

/**
 * A large body's value, from what a feature thread made of it (features/body-task.ts): with its
 * `data` emptied and set apart (`apart`), or parsed here when it came back as its bytes. Throws
 * the problem the client is told of a body that is not JSON.
 */
export function readingValue(reading: BodyReading): {
  value: unknown
  apart?: DataApart | undefined
} {
  if ('problem' in reading) throw invalid(reading.problem)
  // Parsed on the feature thread already: JSON, whose only fault was its depth.
  if ('raw' in reading) return { value: jsonBodyValue(reading.raw) }
  return { value: JSON.parse(reading.rest), apart: reading.apart }
}

/**
 * Reads a JSON body of at most `limit` bytes: a Content-Length over it is refused before
 * anything is read, and a body without one (chunked) is cut off as it passes it. A body of up to
 * LARGE_BODY_BYTES is parsed (jsonBodyValue; a problem for one that is empty or not JSON); a
 * larger one resolves as a LargeJsonBody, its bytes unread.
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
      const bytes = Buffer.concat(chunks, received)
      if (received > LARGE_BODY_BYTES) {
        resolve(new LargeJsonBody(bytes))
        return
      }
      try {
        resolve(jsonBodyValue(bytes))
      } catch (error) {
        reject(error instanceof BodyTextError ? invalid(error.message) : error)
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
