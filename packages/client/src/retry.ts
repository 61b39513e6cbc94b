import { retryAfterSeconds } from './rate-limit.js'

export interface RetryOptions {
  /** How many times a 429 is retried (default 2; 0 turns retrying off). */
  retries?: number
  /**
   * The longest `Retry-After` waited for, in seconds (default 10). A 429 asking for longer (a
   * daily quota used up: until midnight UTC) is handed back at once.
   */
  maxWaitSeconds?: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A fetch that retries a 429 answered with `Retry-After`, waiting what it asks, at most
 * `retries` times and never longer than `maxWaitSeconds` a time. Anything else, and the last
 * 429, is handed back as it came.
 */
export function retryingFetch(
  base: (request: Request) => Promise<Response>,
  { retries = 2, maxWaitSeconds = 10 }: RetryOptions = {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      // A request's body can be read once: every attempt but the last sends a copy.
      const response = await base(attempt < retries ? request.clone() : request)
      if (response.status !== 429 || attempt >= retries) return response
      const wait = retryAfterSeconds(response.headers)
      if (wait === undefined || wait > maxWaitSeconds) return response
      await response.body?.cancel()
      await sleep(wait * 1000)
    }
  }
}
