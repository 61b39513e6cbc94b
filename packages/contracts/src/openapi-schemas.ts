// Schemas the OpenAPI documents show where validation works differently on purpose (see
// documentedAs in service-kit): what a client may send and gets back, precisely typed.
import { type TSchema, Type } from 'typebox'
import { FEATURE_OPTIONS, FEATURE_RESULTS, QuotaBody } from './features.js'
import { FEATURES, type FeatureName } from './plans.js'
import { capitalised } from './schema-helpers.js'
import { USAGE_DAYS_DESCRIPTION, USAGE_MAX_DAYS } from './usage.js'

/** `oneOf` the schemas, told apart by their `feature` (components named after their `$id`). */
function byFeature(schemas: Record<FeatureName, TSchema>, description: string) {
  return Type.Unsafe({
    description,
    oneOf: FEATURES.map((feature) => schemas[feature]),
    discriminator: {
      propertyName: 'feature',
      mapping: Object.fromEntries(
        FEATURES.map((feature) => [
          feature,
          `#/components/schemas/${(schemas[feature] as { $id: string }).$id}`,
        ]),
      ),
    },
  })
}

/** POST /api/v1/data as documented: `options` is one feature's options, named by `feature`. */
export const DataRequestBodyDocumented = Type.Object(
  {
    data: Type.String({ description: 'The text to work on (the plan limits its UTF-8 size)' }),
    options: byFeature(
      FEATURE_OPTIONS,
      "The feature to run (`feature`) and that feature's options",
    ),
  },
  { additionalProperties: false },
)

/** One feature's answer: `feature` names it, `result` is its result. */
const FEATURE_RESPONSES = Object.fromEntries(
  FEATURES.map((feature): [FeatureName, TSchema] => [
    feature,
    Type.Object(
      {
        feature: Type.Literal(feature, { description: 'The feature that ran' }),
        result: FEATURE_RESULTS[feature],
        quota: QuotaBody,
      },
      { $id: `${capitalised(feature)}DataResponse`, additionalProperties: false },
    ),
  ]),
) as Record<FeatureName, TSchema>

/** POST /api/v1/data's 200 as documented: one feature's answer, told apart by `feature`. */
export const DataResponseDocumented = byFeature(
  FEATURE_RESPONSES,
  "The feature's result, with today's quota after this request",
)

/** GET /api/v1/usage's query as documented: `days` is an integer (sent as decimal digits). */
export const UsageQueryDocumented = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: USAGE_MAX_DAYS,
        description: USAGE_DAYS_DESCRIPTION,
      }),
    ),
  },
  { additionalProperties: false },
)
