import createClient, { type Client } from 'openapi-fetch'
import type { paths as DataApiPaths } from './generated/data-api.js'
import type { paths as QuotesPaths } from './generated/quotes.js'
import { type RetryOptions, retryingFetch } from './retry.js'

export type {
  components as DataApiComponents,
  paths as DataApiPaths,
} from './generated/data-api.js'
export type { components as QuotesComponents, paths as QuotesPaths } from './generated/quotes.js'
export {
  type Problem,
  type ProblemCode,
  ProblemError,
  UnexpectedResponseError,
  unwrap,
} from './problem-error.js'
export { parseRateLimit, type RateLimit, retryAfterSeconds } from './rate-limit.js'
export type { RetryOptions } from './retry.js'

export interface ClientOptions {
  /** The service's address, e.g. `http://localhost:3001`. */
  baseUrl: string
  /** Names your program (and a contact) to the service; quotes asks for one. */
  userAgent?: string
  /** Retrying 429s that ask for a short wait (default: twice, waits up to 10 s). */
  retry?: RetryOptions
  /** The fetch to send with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>
  /** Headers sent with every request. */
  headers?: Record<string, string>
}

function options(opts: ClientOptions, headers: Record<string, string>) {
  const base = opts.fetch ?? ((request: Request) => globalThis.fetch(request))
  return {
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(base, opts.retry),
    headers: {
      ...(opts.userAgent ? { 'user-agent': opts.userAgent } : {}),
      ...opts.headers,
      ...headers,
    },
  }
}

export type DataApiClient = Client<DataApiPaths>
/** JSON only: the quotes API's text and HTML representations are not what a client reads. */
export type QuotesClient = Client<QuotesPaths, 'application/json'>

/** The data API, authenticated with an API key (`Authorization: Bearer <key>`). */
export function createDataApiClient(opts: ClientOptions & { apiKey: string }): DataApiClient {
  return createClient<DataApiPaths>(options(opts, { authorization: `Bearer ${opts.apiKey}` }))
}

/** The quotes API (public: no key). JSON is asked for, the API's other formats are not typed. */
export function createQuotesClient(opts: ClientOptions): QuotesClient {
  return createClient<QuotesPaths, 'application/json'>(
    options(opts, { accept: 'application/json' }),
  )
}
