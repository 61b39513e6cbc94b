/** A response's rate-limit state, from whichever header set the service sends. */
export interface RateLimit {
  /** The policy's name (`daily` on data-api); undefined for the X-RateLimit-* headers. */
  policy: string | undefined
  /** Requests the window allows (RateLimit-Policy `q`, or X-RateLimit-Limit). */
  limit: number | undefined
  /** Requests left in the window (RateLimit `r`, or X-RateLimit-Remaining). */
  remaining: number
  /** Seconds until the window starts again (RateLimit `t`, or X-RateLimit-Reset). */
  resetSeconds: number
}

/** Parameters of one structured-field item: `"daily";r=12;t=345` is `daily` with r and t. */
function item(field: string): { name: string; params: Map<string, number> } | undefined {
  const [head, ...parts] = field.split(';').map((part) => part.trim())
  const name = /^"([^"]*)"$/.exec(head ?? '')?.[1]
  if (name === undefined) return undefined
  const params = new Map<string, number>()
  for (const part of parts) {
    const [key, value] = part.split('=')
    if (key && value !== undefined && /^\d+$/.test(value)) params.set(key, Number(value))
  }
  return { name, params }
}

const count = (value: string | null) =>
  value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined

/**
 * Reads `RateLimit: "daily";r=<remaining>;t=<seconds>` with `RateLimit-Policy:
 * "daily";q=<limit>;w=<window>` (data-api: the IETF httpapi-ratelimit-headers draft), or the
 * `X-RateLimit-Limit/Remaining/Reset` trio (quotes' per-address ceiling). Undefined when the
 * response carries neither.
 */
export function parseRateLimit(headers: Headers): RateLimit | undefined {
  const field = headers.get('ratelimit')
  if (field !== null) {
    const state = item(field)
    const remaining = state?.params.get('r')
    const resetSeconds = state?.params.get('t')
    if (state && remaining !== undefined && resetSeconds !== undefined) {
      const policyField = headers.get('ratelimit-policy')
      const policy = policyField === null ? undefined : item(policyField)
      return {
        policy: state.name,
        limit: policy?.name === state.name ? policy.params.get('q') : undefined,
        remaining,
        resetSeconds,
      }
    }
  }
  const remaining = count(headers.get('x-ratelimit-remaining'))
  const resetSeconds = count(headers.get('x-ratelimit-reset'))
  if (remaining === undefined || resetSeconds === undefined) return undefined
  return {
    policy: undefined,
    limit: count(headers.get('x-ratelimit-limit')),
    remaining,
    resetSeconds,
  }
}

/** `Retry-After` in seconds (delay-seconds or an HTTP date), or undefined when absent or bad. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim()
  if (!value) return undefined
  if (/^\d+$/.test(value)) return Number(value)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}
