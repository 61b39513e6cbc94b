// Options and results of the ENTERPRISE features: entities, summary, redact (see features.ts for
// the catalogue).
import { type Static, Type } from 'typebox'
import { Closed, Count, CountOption, FeatureOptions, Words } from './schema-helpers.js'

// The bounds and defaults of the options.
export const SUMMARY_DEFAULT_SENTENCES = 3
export const SUMMARY_MAX_SENTENCES = 20
const SUMMARY_SENTENCES = {
  minimum: 1,
  maximum: SUMMARY_MAX_SENTENCES,
  default: SUMMARY_DEFAULT_SENTENCES,
}

// ---------------------------------------------------------------------------------------------
// entities

/**
 * Characters of context around capitalised words analysed at most; past that the result is
 * `truncated`.
 */
export const ENTITIES_MAX_ANALYZED_CHARACTERS = 10_000

export const EntitiesOptions = FeatureOptions('entities')
export type EntitiesOptions = Static<typeof EntitiesOptions>

export const EntitiesResult = Closed(
  'EntitiesResult',
  {
    people: Words('Names of people (without titles such as Dr. or Mr.), in order of appearance'),
    places: Words('Places: countries, cities, regions, landmarks'),
    organisations: Words('Companies, institutions and other organisations'),
    truncated: Type.Boolean({
      description: `True when the text held more new capitalised words than fit in ${ENTITIES_MAX_ANALYZED_CHARACTERS.toLocaleString('en')} characters of context (about 30 characters either side of each): only those first ones were analysed`,
    }),
  },
  {
    description: 'Named entities (English), each list deduplicated ignoring case',
  },
)
export type EntitiesResult = Static<typeof EntitiesResult>

// ---------------------------------------------------------------------------------------------
// summary

export const SummaryOptions = FeatureOptions('summary', {
  sentences: CountOption('sentences to extract', SUMMARY_SENTENCES),
})
export type SummaryOptions = Static<typeof SummaryOptions>

export const SummaryResult = Closed(
  'SummaryResult',
  {
    sentences: Type.Array(Type.String(), {
      description:
        'The highest-scoring sentences, in their original order, whitespace collapsed. All the ' +
        'sentences when the text has no more than were asked for',
    }),
    count: Count('Number of sentences returned'),
    total_sentences: Count('Number of sentences in the text: the same sentences `stats` counts'),
  },
  {
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
/** Characters of phone-like runs libphonenumber checks per text; past that, the shape decides. */
export const REDACT_PHONE_FINDER_CHARACTERS = 6_000
/** Longest phone-like run (characters) libphonenumber checks; a longer one, the shape decides. */
export const REDACT_PHONE_RUN_CHARACTERS = 40

export const RedactOptions = FeatureOptions('redact', {
  kinds: Type.Optional(
    Type.Array(Type.Enum([...REDACT_KINDS]), {
      minItems: 1,
      // Distinct kinds can be no more; and checking that 200,000 items are distinct took minutes.
      maxItems: REDACT_KINDS.length,
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
})
export type RedactOptions = Static<typeof RedactOptions>

export const RedactResult = Closed('RedactResult', {
  text: Type.String({
    description:
      'The text with every character of each e-mail address, phone number, card number ' +
      '(Luhn-valid, 13 to 19 digits) and IPv4 or IPv6 address replaced by the mask character',
  }),
  counts: Type.Object(
    {
      emails: Count('E-mail addresses masked'),
      phones: Count(
        'Phone numbers masked: numbers that can exist, by libphonenumber (international with ' +
          '+ and a country code, or North American without one); digits alone, without + or ' +
          `a separator, are not taken for one. Past ${REDACT_PHONE_FINDER_CHARACTERS.toLocaleString('en')} characters of phone-like runs in one text, ` +
          `and in runs of digit groups longer than ${REDACT_PHONE_RUN_CHARACTERS} characters, numbers are masked by their ` +
          'shape alone (+ and 7 to 15 digits, or North American formats)',
      ),
      cards: Count('Payment card numbers masked'),
      ips: Count('IPv4 and IPv6 addresses masked'),
    },
    { additionalProperties: false, description: 'What was masked, per kind (0 when not asked)' },
  ),
  total: Count('Everything masked'),
})
export type RedactResult = Static<typeof RedactResult>
