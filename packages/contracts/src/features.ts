import { type Static, type TSchema, Type } from 'typebox'
import { FEATURES, type FeatureName } from './plans.js'
import { Closed, Count } from './schema-helpers.js'

/*
 * The feature catalogue of data-api (spec section 3): for each feature, the options it takes
 * (besides `feature`, which names it) and the result it returns. Option schemas refuse unknown
 * keys, so a misspelt option is a 400 rather than silently ignored.
 */

import {
  KeywordsOptions,
  KeywordsResult,
  LanguageOptions,
  LanguageResult,
  SentimentOptions,
  SentimentResult,
  StatsOptions,
  StatsResult,
} from './features-basic.js'
import {
  EntitiesOptions,
  EntitiesResult,
  RedactOptions,
  RedactResult,
  SummaryOptions,
  SummaryResult,
} from './features-enterprise.js'

export * from './features-basic.js'
export * from './features-enterprise.js'

// ---------------------------------------------------------------------------------------------
// catalogue

export const FEATURE_OPTIONS = {
  stats: StatsOptions,
  sentiment: SentimentOptions,
  keywords: KeywordsOptions,
  language: LanguageOptions,
  entities: EntitiesOptions,
  summary: SummaryOptions,
  redact: RedactOptions,
} as const satisfies Record<FeatureName, TSchema>

export const FEATURE_RESULTS = {
  stats: StatsResult,
  sentiment: SentimentResult,
  keywords: KeywordsResult,
  language: LanguageResult,
  entities: EntitiesResult,
  summary: SummaryResult,
  redact: RedactResult,
} as const satisfies Record<FeatureName, TSchema>

/** Options of each feature, by name: `FeatureOptionsMap['keywords']` is `KeywordsOptions`. */
export type FeatureOptionsMap = { [F in FeatureName]: Static<(typeof FEATURE_OPTIONS)[F]> }
/** Result of each feature, by name: `FeatureResultMap['keywords']` is `KeywordsResult`. */
export type FeatureResultMap = { [F in FeatureName]: Static<(typeof FEATURE_RESULTS)[F]> }

// ---------------------------------------------------------------------------------------------
// POST /api/v1/data

/**
 * Deliberately loose on `options`: the route first checks that `feature` names a feature (so
 * it can answer "unknown feature, allowed: ..."), then validates the options against that
 * feature's own schema.
 */
export const DataRequestBody = Closed('DataRequestBody', {
  data: Type.String({ description: 'The text to work on (the plan limits its UTF-8 size)' }),
  options: Type.Object(
    {
      feature: Type.String({
        description: `The feature to run, one of: ${FEATURES.join(', ')}`,
        examples: ['stats'],
      }),
    },
    {
      additionalProperties: true,
      description: "The feature's name and its own options (see each feature's options schema)",
    },
  ),
})
export type DataRequestBody = Static<typeof DataRequestBody>

export const QuotaBody = Closed('QuotaBody', {
  limit: Count("Requests this key may make per UTC day on the account's plan"),
  used: Count('Requests counted today, this one included'),
  remaining: Count('Requests left today'),
  resets_at: Type.String({
    format: 'date-time',
    description: 'When the count starts again (next UTC midnight)',
  }),
})
export type QuotaBody = Static<typeof QuotaBody>

export const DataResponse = Closed('DataResponse', {
  feature: Type.Enum([...FEATURES], { description: 'The feature that ran' }),
  result: Type.Union(
    [
      StatsResult,
      SentimentResult,
      KeywordsResult,
      LanguageResult,
      EntitiesResult,
      SummaryResult,
      RedactResult,
    ],
    {
      description: "The feature's result; its shape depends on `feature` (see FEATURE_RESULTS)",
    },
  ),
  quota: QuotaBody,
})
export type DataResponse = Static<typeof DataResponse>
