import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Problem } from '@repo/contracts'
import { Value } from 'typebox/value'
import { expect } from 'vitest'
import { type Answer, answer } from './client.js'
import { USER_AGENT } from './env.js'

export { type Answer, http, pool } from './client.js'

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
    type: `/problems/${code.toLowerCase().replaceAll('_', '-')}`,
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
