import { type Static, type TSchema, Type } from 'typebox'
import { FEATURES, type FeatureName } from './plans.js'

/*
 * The feature catalogue of data-api (spec section 3): for each feature, the options it takes
 * (besides `feature`, which names it) and the result it returns. Option schemas refuse unknown
 * keys, so a misspelt option is a 400 rather than silently ignored.
 */

const Count = (description: string) => Type.Integer({ minimum: 0, description })
const Words = (description: string) => Type.Array(Type.String(), { description, uniqueItems: true })

// ---------------------------------------------------------------------------------------------
// stats

export const StatsOptions = Type.Object(
  { feature: Type.Literal('stats') },
  { $id: 'StatsOptions', additionalProperties: false, description: 'stats takes no options' },
)
export type StatsOptions = Static<typeof StatsOptions>

/** Silent reading speed used for `reading_time_seconds` (words per minute). */
export const READING_WORDS_PER_MINUTE = 238

export const StatsResult = Type.Object(
  {
    characters: Count(
      'User-perceived characters (Unicode extended grapheme clusters): an emoji with its ' +
        'modifiers, a letter with its combining accents and a CRLF line break each count as one',
    ),
    bytes: Count('Size of the text in UTF-8 bytes (what plan limits are measured in)'),
    words: Count(
      'Runs of letters and digits, with inner apostrophes and hyphens (`don’t`, `well-known` ' +
        'are one word each); in scripts written without spaces (Chinese, Japanese, Thai...) ' +
        'words are found by the Unicode word-boundary dictionaries',
    ),
    sentences: Count(
      'Sentences: text ending with . ! ? … or their CJK forms, or at a blank line; common ' +
        'abbreviations (Dr., Mr., e.g.) and initials do not end a sentence',
    ),
    lines: Count(
      'Lines: line breaks (LF, CRLF or CR) plus one, not counting an empty last line after a ' +
        'final line break; 0 for empty text',
    ),
    paragraphs: Count('Blocks of non-blank lines separated by one or more blank lines'),
    average_word_length: Type.Number({
      minimum: 0,
      description:
        'Mean number of letters and digits per word (apostrophes, hyphens and combining marks ' +
        'not counted), rounded to 2 decimals; 0 when there are no words',
    }),
    reading_time_seconds: Count(
      `Estimated silent reading time at ${READING_WORDS_PER_MINUTE} words per minute, rounded up`,
    ),
  },
  { $id: 'StatsResult', additionalProperties: false },
)
export type StatsResult = Static<typeof StatsResult>

// ---------------------------------------------------------------------------------------------
// sentiment

export const SentimentOptions = Type.Object(
  { feature: Type.Literal('sentiment') },
  {
    $id: 'SentimentOptions',
    additionalProperties: false,
    description: 'sentiment takes no options',
  },
)
export type SentimentOptions = Static<typeof SentimentOptions>

export const SENTIMENT_LABELS = ['positive', 'negative', 'neutral'] as const
export type SentimentLabel = (typeof SENTIMENT_LABELS)[number]

export const SentimentResult = Type.Object(
  {
    score: Type.Integer({
      description:
        'Sum of the AFINN-165 valences (-5..+5) of the words and emoji found; a word right after ' +
        'a negation ("not good") counts with the opposite sign',
    }),
    comparative: Type.Number({
      description: '`score` divided by the number of tokens, rounded to 4 decimals',
    }),
    label: Type.Enum([...SENTIMENT_LABELS], {
      description: 'positive when score > 0, negative when score < 0, otherwise neutral',
    }),
    positive_words: Words('Distinct words that scored positively, in order of first appearance'),
    negative_words: Words('Distinct words that scored negatively, in order of first appearance'),
  },
  { $id: 'SentimentResult', additionalProperties: false },
)
export type SentimentResult = Static<typeof SentimentResult>

// ---------------------------------------------------------------------------------------------
// keywords

export const KEYWORDS_DEFAULT_LIMIT = 10
export const KEYWORDS_MAX_LIMIT = 50

export const KeywordsOptions = Type.Object(
  {
    feature: Type.Literal('keywords'),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: KEYWORDS_MAX_LIMIT,
        default: KEYWORDS_DEFAULT_LIMIT,
        description: `How many terms to return, 1 to ${KEYWORDS_MAX_LIMIT} (default ${KEYWORDS_DEFAULT_LIMIT})`,
      }),
    ),
  },
  { $id: 'KeywordsOptions', additionalProperties: false },
)
export type KeywordsOptions = Static<typeof KeywordsOptions>

export const KeywordsResult = Type.Object(
  {
    keywords: Type.Array(
      Type.Object(
        {
          term: Type.String({ description: 'The term, lower-cased' }),
          count: Type.Integer({ minimum: 1, description: 'Occurrences in the text' }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Most frequent terms, stop words, numbers and one-letter words removed; by count, ' +
          'then by first appearance',
      },
    ),
    language: Type.String({
      description:
        'ISO 639-3 code of the language whose stop words were removed (English stop words ' +
        'are always removed too)',
    }),
    total_terms: Count('Terms counted after stop words were removed'),
    unique_terms: Count('Distinct terms among them'),
  },
  { $id: 'KeywordsResult', additionalProperties: false },
)
export type KeywordsResult = Static<typeof KeywordsResult>

// ---------------------------------------------------------------------------------------------
// language

export const LANGUAGE_DEFAULT_ALTERNATIVES = 3
export const LANGUAGE_MAX_ALTERNATIVES = 10

export const LanguageOptions = Type.Object(
  {
    feature: Type.Literal('language'),
    alternatives: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: LANGUAGE_MAX_ALTERNATIVES,
        default: LANGUAGE_DEFAULT_ALTERNATIVES,
        description: `How many runner-up languages to list, 0 to ${LANGUAGE_MAX_ALTERNATIVES} (default ${LANGUAGE_DEFAULT_ALTERNATIVES})`,
      }),
    ),
  },
  { $id: 'LanguageOptions', additionalProperties: false },
)
export type LanguageOptions = Static<typeof LanguageOptions>

const LanguageCode = Type.String({
  pattern: '^[a-z]{3}$',
  description: 'ISO 639-3 code; `und` when undetermined',
  examples: ['eng', 'fra', 'und'],
})
const LanguageName = Type.String({
  description: 'English name of the language (the code itself when ICU does not know it)',
})
const Confidence = Type.Number({
  minimum: 0,
  maximum: 1,
  description:
    'Heuristic confidence, 0 to 1: grows with the lead over the other candidates and with ' +
    'the length of the text; below 0.5 the answer is a guess',
})

export const LanguageResult = Type.Object(
  {
    language: LanguageCode,
    name: LanguageName,
    confidence: Confidence,
    alternatives: Type.Array(
      Type.Object(
        { language: LanguageCode, name: LanguageName, confidence: Confidence },
        { additionalProperties: false },
      ),
      { description: 'The next most likely languages, most likely first' },
    ),
  },
  { $id: 'LanguageResult', additionalProperties: false },
)
export type LanguageResult = Static<typeof LanguageResult>

// ---------------------------------------------------------------------------------------------
// entities

/** Characters of candidate sentences analysed at most; past that the result is `truncated`. */
export const ENTITIES_MAX_ANALYZED_CHARACTERS = 200_000

export const EntitiesOptions = Type.Object(
  { feature: Type.Literal('entities') },
  { $id: 'EntitiesOptions', additionalProperties: false, description: 'entities takes no options' },
)
export type EntitiesOptions = Static<typeof EntitiesOptions>

export const EntitiesResult = Type.Object(
  {
    people: Words('Names of people (without titles such as Dr. or Mr.), in order of appearance'),
    places: Words('Places: countries, cities, regions, landmarks'),
    organisations: Words('Companies, institutions and other organisations'),
    truncated: Type.Boolean({
      description: `True when the text held more than ${ENTITIES_MAX_ANALYZED_CHARACTERS.toLocaleString('en')} characters of sentences with capitalised words and only those were analysed`,
    }),
  },
  {
    $id: 'EntitiesResult',
    additionalProperties: false,
    description: 'Named entities (English), each list deduplicated ignoring case',
  },
)
export type EntitiesResult = Static<typeof EntitiesResult>

// ---------------------------------------------------------------------------------------------
// summary

export const SUMMARY_DEFAULT_SENTENCES = 3
export const SUMMARY_MAX_SENTENCES = 20

export const SummaryOptions = Type.Object(
  {
    feature: Type.Literal('summary'),
    sentences: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SUMMARY_MAX_SENTENCES,
        default: SUMMARY_DEFAULT_SENTENCES,
        description: `How many sentences to extract, 1 to ${SUMMARY_MAX_SENTENCES} (default ${SUMMARY_DEFAULT_SENTENCES})`,
      }),
    ),
  },
  { $id: 'SummaryOptions', additionalProperties: false },
)
export type SummaryOptions = Static<typeof SummaryOptions>

export const SummaryResult = Type.Object(
  {
    sentences: Type.Array(Type.String(), {
      description:
        'The highest-scoring sentences, in their original order, whitespace collapsed. All the ' +
        'sentences when the text has no more than were asked for',
    }),
    count: Count('Number of sentences returned'),
    total_sentences: Count('Number of sentences in the text'),
  },
  {
    $id: 'SummaryResult',
    additionalProperties: false,
    description:
      'Extractive summary: sentences scored by how frequent their content words are in the whole text',
  },
)
export type SummaryResult = Static<typeof SummaryResult>

// ---------------------------------------------------------------------------------------------
// redact

export const REDACT_KINDS = ['emails', 'phones', 'cards', 'ips'] as const
export type RedactKind = (typeof REDACT_KINDS)[number]
export const REDACT_DEFAULT_MASK = '*'

export const RedactOptions = Type.Object(
  {
    feature: Type.Literal('redact'),
    kinds: Type.Optional(
      Type.Array(Type.Enum([...REDACT_KINDS]), {
        minItems: 1,
        uniqueItems: true,
        default: [...REDACT_KINDS],
        description: `What to mask, any of ${REDACT_KINDS.join(', ')} (default all)`,
      }),
    ),
    mask: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1,
        pattern: '^\\S$',
        default: REDACT_DEFAULT_MASK,
        description: `The character that replaces each character of what is masked (default \`${REDACT_DEFAULT_MASK}\`)`,
      }),
    ),
  },
  { $id: 'RedactOptions', additionalProperties: false },
)
export type RedactOptions = Static<typeof RedactOptions>

export const RedactResult = Type.Object(
  {
    text: Type.String({
      description:
        'The text with every character of each e-mail address, phone number, card number ' +
        '(Luhn-valid, 13 to 19 digits) and IPv4 or IPv6 address replaced by the mask character',
    }),
    counts: Type.Object(
      {
        emails: Count('E-mail addresses masked'),
        phones: Count(
          'Phone numbers masked: international (+ and 7 to 15 digits) and North American',
        ),
        cards: Count('Payment card numbers masked'),
        ips: Count('IPv4 and IPv6 addresses masked'),
      },
      { additionalProperties: false, description: 'What was masked, per kind (0 when not asked)' },
    ),
    total: Count('Everything masked'),
  },
  { $id: 'RedactResult', additionalProperties: false },
)
export type RedactResult = Static<typeof RedactResult>

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
export const DataRequestBody = Type.Object(
  {
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
  },
  { $id: 'DataRequestBody', additionalProperties: false },
)
export type DataRequestBody = Static<typeof DataRequestBody>

export const QuotaBody = Type.Object(
  {
    limit: Count("Requests this key may make per UTC day on the account's plan"),
    used: Count('Requests counted today, this one included'),
    remaining: Count('Requests left today'),
    resets_at: Type.String({
      format: 'date-time',
      description: 'When the count starts again (next UTC midnight)',
    }),
  },
  { $id: 'QuotaBody', additionalProperties: false },
)
export type QuotaBody = Static<typeof QuotaBody>

export const DataResponse = Type.Object(
  {
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
  },
  { $id: 'DataResponse', additionalProperties: false },
)
export type DataResponse = Static<typeof DataResponse>
