import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import type { QuotaDecision } from '../../../src/lib/quota.js'
import { quotaBody, setRateLimitFields } from '../../../src/lib/rate-limit-fields.js'

const decision: QuotaDecision = {
  allowed: true,
  limit: 1000,
  used: 10,
  remaining: 990,
  resetsAtIso: '2026-11-25T00:00:00.000Z',
  resetSeconds: 3600,
  degraded: false,
}

describe('rate limit fields', () => {
  it('sends the daily policy and what is left of it, as the IETF draft names them', async () => {
    const app = Fastify()
    app.get('/', (_request, reply) => {
      setRateLimitFields(reply, decision)
      return 'ok'
    })
    const res = await app.inject({ url: '/' })
    expect(res.headers['ratelimit-policy']).toBe('"daily";q=1000;w=86400')
    expect(res.headers.ratelimit).toBe('"daily";r=990;t=3600')
    await app.close()
  })

  it('gives the quota in the body with snake_case names', () => {
    expect(quotaBody(decision)).toEqual({
      limit: 1000,
      used: 10,
      remaining: 990,
      resets_at: '2026-11-25T00:00:00.000Z',
    })
  })
})
