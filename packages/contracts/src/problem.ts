import { type Static, Type } from 'typebox'

/**
 * The closed set of error codes both services answer with. Clients may switch on `code`;
 * a new code is a contract change.
 */
export const PROBLEM_CODES = {
  INVALID_REQUEST: 400,
  UNKNOWN_FEATURE: 400,
  UNAUTHORIZED: 401,
  KEY_EXPIRED: 401,
  FEATURE_NOT_IN_PLAN: 403,
  ACCOUNT_DISABLED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  CONCURRENCY_LIMIT: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  FEATURE_TIMEOUT: 503,
  OVERLOADED: 503,
} as const
export type ProblemCode = keyof typeof PROBLEM_CODES

export const ProblemCodeSchema = Type.Enum(Object.keys(PROBLEM_CODES) as ProblemCode[])

/** A code as its page names it: `QUOTA_EXCEEDED` is `quota-exceeded`. */
export function problemSlug(code: ProblemCode): string {
  return code.toLowerCase().replaceAll('_', '-')
}

/**
 * `type` of a problem: stable, one per code, a URI reference to the page describing the code on
 * the service that answered (`/problems/quota-exceeded`, resolved against the request's URL).
 */
export function problemType(code: ProblemCode): string {
  return `/problems/${problemSlug(code)}`
}

/** RFC 9457 problem details, plus the stable `code` and the request id. */
export const Problem = Type.Object(
  {
    type: Type.String({
      description:
        'The page describing the code (/problems/<code in kebab case>), a URI reference resolved against the request URL',
    }),
    title: Type.String(),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    detail: Type.String(),
    code: ProblemCodeSchema,
    request_id: Type.String(),
    instance: Type.Optional(Type.String()),
  },
  { $id: 'Problem', additionalProperties: true },
)
export type Problem = Static<typeof Problem>
