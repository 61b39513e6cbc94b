import { type Static, Type } from 'typebox'
import { QuotaBody } from './features.js'
import { Closed, Count } from './schema-helpers.js'

/** Days of history one request may ask for (the service keeps about 400). */
export const USAGE_MAX_DAYS = 90
export const USAGE_DEFAULT_DAYS = 30
/** The `days` parameter's description, in the validated and the documented schema alike. */
export const USAGE_DAYS_DESCRIPTION = `How many UTC days, today included (1-${USAGE_MAX_DAYS}, default ${USAGE_DEFAULT_DAYS})`

/**
 * GET /api/v1/usage: `days` as a decimal integer from 1 to 90 (a string in the query; `1.5`,
 * `1e1`, `0x10` are refused).
 */
export const UsageQuery = Type.Object(
  {
    days: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,3}$',
        description: USAGE_DAYS_DESCRIPTION,
      }),
    ),
  },
  { additionalProperties: false },
)
export type UsageQuery = Static<typeof UsageQuery>

export const UsageDay = Closed('UsageDay', {
  date: Type.String({ format: 'date', description: 'The UTC day (YYYY-MM-DD)' }),
  requests: Count('Requests counted against the quota that day'),
})
export type UsageDay = Static<typeof UsageDay>

/** This key's daily counts, oldest first, today (live, this request included) last. */
export const UsageResponse = Type.Object(
  {
    key: Type.Object(
      {
        id: Type.String({ format: 'uuid' }),
        name: Type.String(),
        prefix: Type.String(),
      },
      { additionalProperties: false },
    ),
    from: Type.String({ format: 'date', description: 'The first day listed' }),
    to: Type.String({ format: 'date', description: 'The last day listed: today (UTC)' }),
    days: Type.Array(UsageDay, { description: 'One entry per day, oldest first; 0 for no use' }),
    total: Count('The sum over the days listed'),
    quota: QuotaBody,
  },
  {
    $id: 'UsageResponse',
    description: "This key's requests per UTC day",
    additionalProperties: false,
  },
)
export type UsageResponse = Static<typeof UsageResponse>
