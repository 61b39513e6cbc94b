import type { components } from './generated/data-api.js'
import { parseRateLimit, type RateLimit, retryAfterSeconds } from './rate-limit.js'

/** RFC 9457 problem details as both services send them (`code` is one of a closed set). */
export type Problem = components['schemas']['Problem']
export type ProblemCode = Problem['code']

/** A problem response, thrown by `unwrap`: switch on `code`. */
export class ProblemError extends Error {
  override name = 'ProblemError'
  readonly status: number
  readonly code: ProblemCode
  readonly problem: Problem
  /** Seconds the service asks to wait (429, 503), when it says. */
  readonly retryAfter: number | undefined
  readonly rateLimit: RateLimit | undefined

  constructor(problem: Problem, response: Response) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`)
    this.status = problem.status
    this.code = problem.code
    this.problem = problem
    this.retryAfter = retryAfterSeconds(response.headers)
    this.rateLimit = parseRateLimit(response.headers)
  }
}

/** An error answer that is not a problem (a proxy's HTML page, say). */
export class UnexpectedResponseError extends Error {
  override name = 'UnexpectedResponseError'
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`unexpected ${status} response`)
  }
}

function isProblem(value: unknown): value is Problem {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Problem).code === 'string' &&
    typeof (value as Problem).status === 'number'
  )
}

/**
 * The data of a successful call, or a ProblemError for a problem answer:
 * `const info = await unwrap(api.GET('/api/v1/data'))`.
 */
export async function unwrap<D, E>(
  call: Promise<{ data?: D; error?: E; response: Response }>,
): Promise<D> {
  const { data, error, response } = await call
  if (response.ok) return data as D
  if (isProblem(error)) throw new ProblemError(error, response)
  throw new UnexpectedResponseError(response.status, error)
}
