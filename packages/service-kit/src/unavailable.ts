/**
 * Whether an error thrown while serving a request means a backing store is unavailable (so the
 * answer is 503 with Retry-After, never a 500): the network failing, the server refusing or
 * dropping connections, shutting down, or a pool or pooler giving up waiting.
 */

// Node's own codes for a connection that could not be made or was lost.
export const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
])

// SQLSTATE classes and codes (PostgreSQL appendix A): 08 connection exception, 53 insufficient
// resources, 57P01-57P05 operator intervention (shutdown, cannot connect now), 57014 a statement
// cancelled by statement_timeout (the database is overloaded), 58 system error. PgBouncer uses
// 08P01 for its own refusals (no server connection, query_wait_timeout).
const SQLSTATE = /^(08|53|58)[0-9A-Z]{3}$|^57P0[1-5]$|^57014$/

// pg's own messages when the pool or a client gives up (they carry no code).
const PG_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Connection ended unexpectedly/i

export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true
  if (PG_MESSAGES.test(error.message)) return true
  // AggregateError (a connection tried on several addresses) or a wrapped cause.
  const inner = (error as { errors?: unknown[]; cause?: unknown }).errors ?? [
    (error as { cause?: unknown }).cause,
  ]
  return inner.some((cause) => cause !== error && isUnavailable(cause))
}
