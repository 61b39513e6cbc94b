import { EventEmitter } from 'node:events'
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { HttpProblem } from '@repo/service-kit'
import { waitFor } from '@repo/service-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  bodyAllowance,
  LARGE_BODY_BYTES,
  LargeJsonBody,
  readJsonBody,
} from '../../../src/lib/json-body.js'

/*
 * The data API's body reader over real HTTP: a server whose handler reads each request with
 * readJsonBody(limit from the `x-limit` header) and answers what it got (a large body's bytes as
 * `large`, their text), or the problem.
 */

let server: Server
let port = 0
/** What each read was refused with, in order (also for requests whose client went away). */
const refusals: unknown[] = []

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    readJsonBody(req, Number(req.headers['x-limit'])).then(
      (body) =>
        res.end(
          JSON.stringify(
            body instanceof LargeJsonBody
              ? { large: Buffer.from(body.bytes).toString('utf8') }
              : { body },
          ),
        ),
      (error: unknown) => {
        refusals.push(error)
        const problem = error as HttpProblem
        res.statusCode = problem instanceof HttpProblem ? problem.statusCode : 599
        if (problem instanceof HttpProblem) {
          for (const [name, value] of Object.entries(problem.headers ?? {})) {
            res.setHeader(name, value)
          }
        }
        res.end(JSON.stringify({ code: problem.code, detail: problem.message, ...problem.extra }))
      },
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

/** Sends `chunks` (chunked when `length` is undefined) and resolves to the status and JSON answer. */
function send(limit: number, chunks: string[], length?: number) {
  return new Promise<{ status: number; json: Record<string, unknown>; connection?: string }>(
    (resolve, reject) => {
      const req = httpRequest(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          headers: {
            'x-limit': String(limit),
            ...(length === undefined ? {} : { 'content-length': String(length) }),
          },
        },
        (res) => {
          let text = ''
          res.on('data', (chunk) => {
            text += chunk
          })
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              json: JSON.parse(text),
              ...(res.headers.connection ? { connection: res.headers.connection } : {}),
            }),
          )
        },
      )
      // The server may answer and close before the whole body is sent (a refused body).
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error)
      })
      for (const chunk of chunks) req.write(chunk)
      req.end()
    },
  )
}

describe('readJsonBody', () => {
  it('parses a JSON body within the limit, declared or chunked', async () => {
    const text = JSON.stringify({ data: 'héllo', options: { feature: 'stats' } })
    const declared = await send(1000, [text], Buffer.byteLength(text))
    expect(declared).toMatchObject({ status: 200, json: { body: JSON.parse(text) } })
    const chunked = await send(1000, [text.slice(0, 5), text.slice(5)])
    expect(chunked.json.body).toEqual(JSON.parse(text))
  })

  it('takes a body of exactly the limit, declared or chunked', async () => {
    const text = JSON.stringify({ data: 'x'.repeat(20) })
    const limit = Buffer.byteLength(text)
    expect((await send(limit, [text], limit)).status).toBe(200)
    expect((await send(limit, [text])).status).toBe(200)
  })

  it('gives up on a body whose client goes away before its end', async () => {
    const before = refusals.length
    const req = httpRequest({
      port,
      host: '127.0.0.1',
      method: 'POST',
      headers: { 'x-limit': '1000' },
    })
    req.on('error', () => {})
    req.write('{"data":"half a bo')
    await new Promise((resolve) => setTimeout(resolve, 50))
    req.destroy()
    await waitFor('the read to fail', async () => refusals.length > before)
    expect(refusals.at(-1)).toBeInstanceOf(Error)
    expect(refusals.at(-1)).not.toBeInstanceOf(HttpProblem)
  })

  it('refuses a declared length over the limit before reading, saying how large, and closes', async () => {
    const res = await send(100, ['{}'], 1_234_567)
    expect(res.status).toBe(413)
    expect(res.json).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      detail:
        "The body is 1,234,567 bytes; at most 100 bytes, which is what this key's plan accepts.",
      max_body_bytes: 100,
    })
    expect(res.connection).toBe('close')
  })

  it('cuts a chunked body off as it passes the limit', async () => {
    const res = await send(1000, ['{"data":"', 'x'.repeat(600), 'y'.repeat(600), '"}'])
    expect(res.status).toBe(413)
    expect(res.json).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      detail: "The body is more than 1,000 bytes, which is what this key's plan accepts.",
      max_body_bytes: 1000,
    })
  })

  it('refuses an empty or blank body, and text that is not JSON, with 400', async () => {
    for (const body of [[], ['  \n ']]) {
      expect((await send(100, body)).json).toEqual({
        code: 'INVALID_REQUEST',
        detail: 'The body is empty; send a JSON object.',
      })
    }
    expect((await send(100, ['{"data": '])).json).toEqual({
      code: 'INVALID_REQUEST',
      detail: 'The body is not valid JSON.',
    })
  })

  it('hands bodies over LARGE_BODY_BYTES on as their bytes, unread, each its own', async () => {
    const big = (filler: string) => `{"data":"${filler.repeat(LARGE_BODY_BYTES)}"}`
    const limit = 4 * LARGE_BODY_BYTES
    const answers = await Promise.all(['a', 'b', 'c'].map((filler) => send(limit, [big(filler)])))
    expect(answers.map((res) => res.json.large)).toEqual(['a', 'b', 'c'].map(big))
    // Not JSON, or empty: the feature thread that reads it says so (features/body-task.ts).
    const spaces = ' '.repeat(LARGE_BODY_BYTES + 1)
    expect((await send(limit, [spaces])).json).toEqual({ large: spaces })
    expect((await send(limit, [big('x').slice(0, -1)])).json).toEqual({
      large: big('x').slice(0, -1),
    })
    // The limit holds for them as for any body.
    expect((await send(limit, [big('x').repeat(4)])).status).toBe(413)
  })

  it('refuses a prototype key, as Fastify does', async () => {
    const res = await send(100, ['{"__proto__": {"admin": true}}'])
    expect(res).toMatchObject({ status: 400, json: { code: 'INVALID_REQUEST' } })
  })
})

describe('when readJsonBody settles', () => {
  /**
   * Feeds a whole body of `bytes` bytes (a JSON string) and its end to readJsonBody at once, and
   * tells how many turns of the event loop passed before it settled (0: once the microtasks ran),
   * and with what.
   */
  async function settle(bytes: number): Promise<{ turns: number; value: unknown }> {
    const payload = Object.assign(new EventEmitter(), { headers: {}, pause: () => payload })
    let settled = false
    const read = readJsonBody(payload as unknown as IncomingMessage, 4 * LARGE_BODY_BYTES)
    read.then(() => {
      settled = true
    })
    payload.emit('data', Buffer.from(JSON.stringify('x'.repeat(bytes - 2))))
    payload.emit('end')
    await Promise.resolve()
    await Promise.resolve()
    let turns = 0
    while (!settled && turns < 5) {
      await new Promise(setImmediate)
      turns += 1
    }
    return { turns, value: await read }
  }

  it('parses a body of up to LARGE_BODY_BYTES as soon as it ends', async () => {
    for (const bytes of [LARGE_BODY_BYTES, 2]) {
      expect(await settle(bytes)).toEqual({ turns: 0, value: 'x'.repeat(bytes - 2) })
    }
  })

  it('gives a larger body as its bytes as soon as it ends, without parsing it', async () => {
    const { turns, value } = await settle(LARGE_BODY_BYTES + 1)
    expect(turns).toBe(0)
    expect(value).toBeInstanceOf(LargeJsonBody)
    const { bytes } = value as LargeJsonBody
    expect(Buffer.from(bytes).toString()).toBe(JSON.stringify('x'.repeat(LARGE_BODY_BYTES - 1)))
    // Its own buffer, whole: it can be moved to a feature thread rather than copied.
    expect(bytes.byteOffset).toBe(0)
    expect(bytes.buffer.byteLength).toBe(LARGE_BODY_BYTES + 1)
  })
})

describe('bodyAllowance', () => {
  it('is twice the data limit plus 64 KB for the envelope', () => {
    expect(bodyAllowance(1_000)).toBe(2_000 + 65_536)
    expect(bodyAllowance(0)).toBe(65_536)
  })
})
