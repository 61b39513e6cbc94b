import { DATA_API_URL } from './env.js'
import { type Answer, http } from './http.js'

/**
 * Calls /api/v1/data: GET without a body, POST with one (an object is sent as JSON, a string
 * as it is). `key` undefined sends no Authorization header.
 */
export function callData(
  key: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const sent: Record<string, string> = { accept: 'application/json' }
  if (key !== undefined) sent.authorization = `Bearer ${key}`
  if (body !== undefined) sent['content-type'] = 'application/json'
  return http(`${DATA_API_URL}/api/v1/data`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...sent, ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
}

/** Parses `"daily";r=12;t=345` into { r: 12, t: 345 }. */
export function parseRateLimit(header: string | null): { r: number; t: number } {
  const match = /^"daily";r=(\d+);t=(\d+)$/.exec(header ?? '')
  if (!match) throw new Error(`not a RateLimit field: ${header}`)
  return { r: Number(match[1]), t: Number(match[2]) }
}
