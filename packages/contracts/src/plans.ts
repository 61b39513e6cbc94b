import { Type } from 'typebox'

export const PLANS = ['FREE', 'PRO', 'ENTERPRISE'] as const
export type Plan = (typeof PLANS)[number]
export const PlanSchema = Type.Enum([...PLANS], { description: 'Subscription plan' })

export const FEATURES = [
  'stats',
  'sentiment',
  'keywords',
  'language',
  'entities',
  'summary',
  'redact',
] as const
export type FeatureName = (typeof FEATURES)[number]
export const FeatureNameSchema = Type.Enum([...FEATURES])

export interface PlanLimits {
  /** Requests per API key per UTC day. */
  dailyRequests: number
  /** Largest `data` accepted, in bytes of UTF-8. */
  maxDataBytes: number
  /** Feature requests (POST /api/v1/data) one key may have running at once, per instance. */
  concurrentRequests: number
  features: readonly FeatureName[]
}

/** What each plan allows (spec section 3). */
export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  FREE: {
    dailyRequests: 1_000,
    maxDataBytes: 10 * 1024,
    concurrentRequests: 2,
    features: ['stats', 'sentiment'],
  },
  PRO: {
    dailyRequests: 10_000,
    maxDataBytes: 100 * 1024,
    concurrentRequests: 4,
    features: ['stats', 'sentiment', 'keywords', 'language'],
  },
  ENTERPRISE: {
    dailyRequests: 100_000,
    maxDataBytes: 1024 * 1024,
    concurrentRequests: 8,
    features: [...FEATURES],
  },
}

/** The cheapest plan that includes a feature (named in 403 answers). */
export function cheapestPlanWith(feature: FeatureName): Plan {
  return PLANS.find((plan) => PLAN_LIMITS[plan].features.includes(feature)) as Plan
}
