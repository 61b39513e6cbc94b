// Requests and answers at a plan's limits, from the plans of '@repo/contracts': the data
// service's tests (app.inject) and the e2e suite (real HTTP) read the limits from one place.
import { PLAN_LIMITS, type Plan } from '@repo/contracts'

/** A stats request whose `data` is one byte over what `plan` accepts. */
export const oneByteOver = (plan: Plan) => ({
  data: 'a'.repeat(PLAN_LIMITS[plan].maxDataBytes + 1),
  options: { feature: 'stats' },
})

/** What the 413 problem answering `oneByteOver(plan)` says. */
export const oneByteOverProblem = (plan: Plan) => ({
  max_data_bytes: PLAN_LIMITS[plan].maxDataBytes,
  data_bytes: PLAN_LIMITS[plan].maxDataBytes + 1,
  plan,
})
