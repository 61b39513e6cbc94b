import { PROBLEM_CODES, type ProblemCode } from '@repo/contracts'

/**
 * An error a route throws on purpose: it becomes a problem response with this status and code.
 * `extra` members are added to the problem body; `headers` are set on the response.
 */
export class HttpProblem extends Error {
  readonly statusCode: number
  readonly code: ProblemCode
  readonly extra: Record<string, unknown>
  readonly headers: Record<string, string>

  constructor(
    code: ProblemCode,
    detail: string,
    options: { extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(detail)
    this.name = 'HttpProblem'
    this.code = code
    this.statusCode = PROBLEM_CODES[code]
    this.extra = options.extra ?? {}
    this.headers = options.headers ?? {}
  }
}
