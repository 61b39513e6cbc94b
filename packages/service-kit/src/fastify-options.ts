import { randomBytes } from 'node:crypto'
import { type FastifyServerOptions, LogController } from 'fastify'
import type { DestinationStream } from 'pino'
import type { BaseConfig } from './config.js'
import { parseUrlEncoded } from './text-input.js'

// Request ids: a random prefix per process and a counter. Unique across replicas and restarts
// without the cost of a UUID per request (which took a tenth of the API's throughput).
const instanceId = randomBytes(6).toString('base64url')
let sequence = 0
function nextRequestId(): string {
  sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER
  return `${instanceId}-${sequence.toString(36)}`
}

/** A client-supplied request id is kept only when it is short and plain (no log injection). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/

/**
 * Fastify options shared by the servers and the tests, so tests run the app exactly as
 * production does (same logger redaction, request ids, limits and proxy trust).
 */
export function fastifyOptions(
  config: Pick<BaseConfig, 'LOG_LEVEL' | 'TRUST_PROXY'>,
  overrides: FastifyServerOptions & { logStream?: DestinationStream } = {},
): FastifyServerOptions {
  const { logStream, ...rest } = overrides
  return {
    logger: {
      level: config.LOG_LEVEL,
      ...(logStream ? { stream: logStream } : {}),
      // Belt and braces: nothing we log carries these, but a stray `log.info({ req })` must not leak.
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          'headers.cookie',
          'res.headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
    },
    // One line per request is written by the request-log plugin instead of Fastify's two.
    logController: new LogController({
      disableRequestLogging: true,
      requestIdLogLabel: 'request_id',
    }),
    genReqId: (req) => {
      const supplied = req.headers['x-request-id']
      return typeof supplied === 'string' && SAFE_REQUEST_ID.test(supplied)
        ? supplied
        : nextRequestId()
    },
    // Only named proxies may set the client address (X-Forwarded-For); nobody by default.
    trustProxy: config.TRUST_PROXY || false,
    // Keep connections longer than common load-balancer idle timeouts (60 s) to avoid 502s.
    keepAliveTimeout: 72_000,
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    bodyLimit: 1_048_576,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: 200,
      // Fastify's own parser, plus a mark on malformed percent-encoding (see textProblem).
      querystringParser: parseUrlEncoded,
    },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
    ...rest,
  }
}
