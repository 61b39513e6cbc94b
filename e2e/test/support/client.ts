import { USER_AGENT } from './env.js'

// Plain HTTP with fetch and nothing else (no vitest, no workspace packages), so that scripts
// outside the suite (scripts/test-compose.ts, scripts/test-scale.ts) use the same helpers.

/** A response read to the end: status, headers and the body as text. */
export interface Answer {
  status: number
  headers: Headers
  text: string
  /** The body parsed as JSON (throws with the body in the message when it is not JSON). */
  json: <T = Record<string, unknown>>() => T
}

export function answer(status: number, headers: Headers, text: string): Answer {
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
