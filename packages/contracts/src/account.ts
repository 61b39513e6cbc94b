import { type Static, Type } from 'typebox'
import { QuotaBody } from './features.js'
import { FeatureNameSchema, PlanSchema } from './plans.js'
import { Closed } from './schema-helpers.js'

const DateTime = (description: string) => Type.String({ format: 'date-time', description })

/** GET /api/v1/data: who is calling, with which key, how much of today's quota is left. */
export const DataInfoResponse = Closed('DataInfoResponse', {
  user: Type.Object({
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    plan: PlanSchema,
    created_at: DateTime('When the account was created'),
  }),
  key: Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    prefix: Type.String({
      description: 'The first characters of the key, as the dashboard shows them',
    }),
    created_at: DateTime('When the key was created'),
    last_used_at: Type.Union([DateTime('When the key was used before this request'), Type.Null()]),
  }),
  quota: QuotaBody,
  features: Type.Array(FeatureNameSchema, { description: 'Features the plan includes' }),
  max_data_bytes: Type.Integer({
    description: 'Largest `data` the plan accepts, in UTF-8 bytes',
  }),
})
export type DataInfoResponse = Static<typeof DataInfoResponse>
