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

/** `type` URI of a problem: stable, documented in the README, one per code. */
export function problemType(code: ProblemCode): string {
  return `urn:problem-type:${code.toLowerCase().replaceAll('_', '-')}`
}

/** RFC 9457 problem details, plus the stable `code` and the request id. */
export const Problem = Type.Object(
  {
    type: Type.String({ description: 'URI naming the problem type (urn:problem-type:...)' }),
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
