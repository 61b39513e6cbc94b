import type { FastifyInstance, LightMyRequestResponse } from 'fastify'

/** Calls /api/v1/data with a bearer key. */
export function callData(
  app: FastifyInstance,
  key: string | undefined,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: body === undefined ? 'GET' : 'POST',
    url: '/api/v1/data',
    headers: {
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...extraHeaders,
    },
    ...(body === undefined
      ? {}
      : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
}

/** Parses `"daily";r=12;t=345` into { r: 12, t: 345 }. */
export function parseRateLimit(header: string | string[] | number | undefined): {
  r: number
  t: number
} {
  const text = String(header)
  const r = /;r=(\d+)/.exec(text)?.[1]
  const t = /;t=(\d+)/.exec(text)?.[1]
  if (r === undefined || t === undefined) throw new Error(`not a RateLimit field: ${text}`)
  return { r: Number(r), t: Number(t) }
}
