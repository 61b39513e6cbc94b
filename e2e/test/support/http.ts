import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Problem } from '@repo/contracts'
import { Value } from 'typebox/value'
import { expect } from 'vitest'
import { USER_AGENT } from './env.js'

/** A response read to the end: status, headers and the body as text. */
export interface Answer {
  status: number
  headers: Headers
  text: string
  /** The body parsed as JSON (throws with the body in the message when it is not JSON). */
  json: <T = Record<string, unknown>>() => T
}

function answer(status: number, headers: Headers, text: string): Answer {
  return {
    status,
    headers,
    text,
    json<T>() {
      try {
        return JSON.parse(text) as T
      } catch {
        throw new Error(`not JSON (status ${status}): ${text.slice(0, 300)}`)
      }
    },
  }
}

/**
 * A real HTTP request with global fetch. Redirects are not followed (the tests look at them),
 * and every request names this suite in its User-Agent.
 */
export async function http(url: string, init: RequestInit = {}): Promise<Answer> {
  const headers = new Headers(init.headers)
  if (!headers.has('user-agent')) headers.set('user-agent', USER_AGENT)
  const res = await fetch(url, { redirect: 'manual', ...init, headers })
  return answer(res.status, res.headers, await res.text())
}

/**
 * A GET that sends no Accept header at all. fetch cannot do that (the Fetch standard adds
 * `Accept: *\/*` to every request), so this one case goes through node:http, still over the wire.
 */
export function getWithoutAccept(url: string): Promise<Answer> {
  const target = new URL(url)
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(target, { headers: { 'user-agent': USER_AGENT } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
            headers.append(name, v)
          }
        }
        resolve(answer(res.statusCode ?? 0, headers, Buffer.concat(chunks).toString('utf8')))
      })
    })
    req.on('error', reject)
    req.end()
  })
}

/** Checks an RFC 9457 problem answer and returns its body. */
export function expectProblem(res: Answer, status: number, code: string): Record<string, unknown> {
  expect(res.status, res.text.slice(0, 300)).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  const body = res.json()
  expect(Value.Check(Problem, body), JSON.stringify(body)).toBe(true)
  expect(body).toMatchObject({
    status,
    code,
    type: `urn:problem-type:${code.toLowerCase().replaceAll('_', '-')}`,
  })
  expect(String(body.detail).length).toBeGreaterThan(0)
  return body
}

/** The comma-separated members of a header such as Vary, lower-cased. */
export function listHeader(headers: Headers, name: string): string[] {
  return (headers.get(name) ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)
}

/** Runs `task` for 0..count-1 with at most `concurrency` in flight; results in order. */
export async function pool<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count)
  let next = 0
  async function worker() {
    while (next < count) {
      const index = next
      next += 1
      results[index] = await task(index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
  return results
}
