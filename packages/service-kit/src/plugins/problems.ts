import { PROBLEM_DOCS, type Problem, type ProblemCode, problemType } from '@repo/contracts'
import type {
  FastifyError,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
} from 'fastify'
import fp from 'fastify-plugin'
import { HttpProblem } from '../errors.js'
import { isUnavailable } from '../unavailable.js'

/** Sends a problem in whatever format the service negotiates; the default is problem+json. */
export type ProblemRenderer = (
  request: FastifyRequest,
  reply: FastifyReply,
  problem: Problem,
) => FastifyReply | Promise<unknown>

export interface ProblemsPluginOptions {
  render?: ProblemRenderer
}

export function buildProblem(
  request: FastifyRequest,
  code: ProblemCode,
  status: number,
  detail: string,
  extra: Record<string, unknown> = {},
): Problem {
  return {
    ...extra,
    type: problemType(code),
    title: PROBLEM_DOCS[code].title,
    status,
    detail,
    code,
    request_id: String(request.id),
  }
}

export const sendProblemJson: ProblemRenderer = (_request, reply, problem) =>
  reply
    .status(problem.status)
    .type('application/problem+json; charset=utf-8')
    .serializer(JSON.stringify)
    .send(problem)

interface Classified {
  code: ProblemCode
  status: number
  detail: string
  extra?: Record<string, unknown>
  headers?: Record<string, string>
  /** A backing store is down: reported to its state (logged once), not logged per request. */
  unavailable?: boolean
}

/** Seconds a client is asked to wait when a dependency is down. */
const RETRY_AFTER_SECONDS = '5'

/** Codes for the statuses Fastify and its plugins answer with (other 4xx become 400). */
const CODE_FOR_STATUS: Partial<Record<number, ProblemCode>> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
}

/** Maps anything thrown during a request onto the closed set of codes. */
export function classifyError(error: FastifyError | HttpProblem | Error): Classified {
  if (error instanceof HttpProblem) {
    return {
      code: error.code,
      status: error.statusCode,
      detail: error.message,
      extra: error.extra,
      headers: error.headers,
    }
  }
  const fe = error as FastifyError
  if (fe.validation) {
    return { code: 'INVALID_REQUEST', status: 400, detail: fe.message }
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'PAYLOAD_TOO_LARGE', status: 413, detail: 'The request body is too large.' }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        code: 'UNSUPPORTED_MEDIA_TYPE',
        status: 415,
        detail: 'Send the body as application/json.',
      }
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: 'INVALID_REQUEST', status: 400, detail: 'The body is not valid JSON.' }
  }
  if (isUnavailable(error)) {
    return {
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      detail: 'A service this request needs is unavailable right now; retry shortly.',
      headers: { 'retry-after': RETRY_AFTER_SECONDS },
      unavailable: true,
    }
  }
  const status = fe.statusCode ?? 500
  const code = CODE_FOR_STATUS[status]
  if (code === 'SERVICE_UNAVAILABLE') {
    return { code, status, detail: 'The service is temporarily unavailable.' }
  }
  if (code) return { code, status, detail: fe.message }
  if (status >= 400 && status < 500) {
    return { code: 'INVALID_REQUEST', status: 400, detail: fe.message }
  }
  // Never leak the details of a server-side failure.
  return { code: 'INTERNAL_ERROR', status: 500, detail: 'An unexpected error occurred.' }
}

/**
 * One error envelope for the whole service: RFC 9457 problem details with a stable code.
 * Routes throw HttpProblem; validation, body-parser, rate-limit and unknown errors are mapped
 * here, and 5xx details are logged but never sent.
 */
const problemsPlugin: FastifyPluginAsync<ProblemsPluginOptions> = async (fastify, opts) => {
  const send = opts.render ?? sendProblemJson
  // Every problem is counted by its code (problem_responses_total) when metrics are registered.
  const count = fastify.hasDecorator('countProblem') ? fastify.countProblem : undefined
  const render: ProblemRenderer = count
    ? (request, reply, problem) => {
        count(problem.code)
        return send(request, reply, problem)
      }
    : send

  fastify.setErrorHandler((error, request, reply) => {
    // Fastify parses the body before it knows there is no route: for an unknown route, say so
    // (404 or 405) rather than complain about a body nobody would read.
    if (request.is404) return notFound(request, reply)
    const classified = classifyError(error as FastifyError)
    if (classified.unavailable) {
      // Postgres is the store requests fail on (Redis failures are handled where they happen).
      if (fastify.hasDecorator('postgresState')) fastify.postgresState.down(error as Error)
    } else if (error instanceof HttpProblem && classified.status === 503) {
      // A refusal the service chose (OVERLOADED, FEATURE_TIMEOUT, ...), counted by its code in
      // the metrics: not a failure to investigate, and its stack only says where it was thrown.
      // Under overload, an error line with a stack for each refusal made the log the flood.
      request.log.warn({ code: classified.code, detail: classified.detail }, 'request refused')
    } else if (classified.status >= 500) {
      request.log.error({ err: error }, 'request failed')
    } else {
      request.log.debug({ err: error }, 'client error')
    }
    if (classified.headers) reply.headers(classified.headers)
    const problem = buildProblem(
      request,
      classified.code,
      classified.status,
      classified.detail,
      classified.extra,
    )
    return render(request, reply, problem)
  })

  // No route for this method and path: 405 with `Allow` when the path exists for other
  // methods (POST /api, DELETE /api/v1/data), 404 otherwise.
  function notFound(request: FastifyRequest, reply: FastifyReply) {
    const allowed = allowedMethods(fastify, request.url)
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '))
      return render(
        request,
        reply,
        buildProblem(
          request,
          'METHOD_NOT_ALLOWED',
          405,
          `${pathOf(request)} answers ${allowed.join(', ')}, not ${request.method}.`,
        ),
      )
    }
    return render(
      request,
      reply,
      buildProblem(
        request,
        'NOT_FOUND',
        404,
        `Nothing is at ${request.method} ${pathOf(request)}.`,
      ),
    )
  }
  fastify.setNotFoundHandler(notFound)
}

const PROBED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/**
 * The methods that have a route of their own at `url`. Catch-all routes (static files, the
 * CORS preflight) match every path, so a match through a wildcard does not count.
 */
function allowedMethods(fastify: FastifyInstance, url: string): string[] {
  return PROBED_METHODS.filter((method) => {
    const route = fastify.findRoute({ method, url })
    return route !== null && !('*' in (route.params as Record<string, unknown>))
  })
}

function pathOf(request: FastifyRequest): string {
  const path = request.url.split('?', 1)[0] ?? '/'
  return path.length > 200 ? `${path.slice(0, 200)}…` : path
}

export default fp(problemsPlugin, { name: 'problems', fastify: '5.x' })
