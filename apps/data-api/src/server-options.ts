import type { FastifyServerOptions } from 'fastify'

/**
 * How this service differs from the shared Fastify defaults: no type coercion. Its inputs are
 * JSON bodies and forms, where `42` for a string or `"7"` for a number is a client error to
 * report, not to paper over (the quotes service coerces query strings, which are all text).
 */
export const serverOverrides: FastifyServerOptions = {
  ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
}
