import { describe, expect, it } from 'vitest'
import { cheapestPlanWith, FEATURES, PLAN_LIMITS, PLANS, problemType } from '../src/index.js'

describe('plans', () => {
  it('names the cheapest plan that includes each feature', () => {
    expect(cheapestPlanWith('stats')).toBe('FREE')
    expect(cheapestPlanWith('sentiment')).toBe('FREE')
    expect(cheapestPlanWith('keywords')).toBe('PRO')
    expect(cheapestPlanWith('language')).toBe('PRO')
    expect(cheapestPlanWith('summary')).toBe('ENTERPRISE')
    expect(cheapestPlanWith('redact')).toBe('ENTERPRISE')
  })

  it('only ever grow from plan to plan (spec section 3)', () => {
    expect(PLANS).toEqual(['FREE', 'PRO', 'ENTERPRISE'])
    expect(PLAN_LIMITS.ENTERPRISE.features).toEqual([...FEATURES])
    const limits = PLANS.map((plan) => PLAN_LIMITS[plan])
    for (const [lower, higher] of limits.slice(1).map((next, i) => [limits[i], next] as const)) {
      if (lower === undefined) throw new Error('unreachable')
      expect(higher.dailyRequests).toBe(lower.dailyRequests * 10)
      expect(higher.maxDataBytes).toBeGreaterThan(lower.maxDataBytes)
      expect(higher.concurrentRequests).toBe(lower.concurrentRequests * 2)
      for (const feature of lower.features) expect(higher.features).toContain(feature)
    }
  })
})

describe('problemType', () => {
  it('turns every underscore into a hyphen, lower-case', () => {
    expect(problemType('PAYLOAD_TOO_LARGE')).toBe('/problems/payload-too-large')
  })
})
