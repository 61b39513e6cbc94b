// Options and results of the features every plan or PRO has: stats, sentiment, keywords,
// language (see features.ts for the catalogue).
import { type Static, Type } from 'typebox'
import { Closed, Count, CountOption, FeatureOptions, Words } from './schema-helpers.js'

// The bounds and defaults of the options.
export const KEYWORDS_DEFAULT_LIMIT = 10
export const KEYWORDS_MAX_LIMIT = 50
const KEYWORDS_LIMIT = { minimum: 1, maximum: KEYWORDS_MAX_LIMIT, default: KEYWORDS_DEFAULT_LIMIT }
export const LANGUAGE_DEFAULT_ALTERNATIVES = 3
export const LANGUAGE_MAX_ALTERNATIVES = 10
const LANGUAGE_ALTERNATIVES = {
  minimum: 0,
  maximum: LANGUAGE_MAX_ALTERNATIVES,
  default: LANGUAGE_DEFAULT_ALTERNATIVES,
}

// ---------------------------------------------------------------------------------------------
// options (stats and sentiment take none)

export const StatsOptions = FeatureOptions('stats')
export type StatsOptions = Static<typeof StatsOptions>
export const SentimentOptions = FeatureOptions('sentiment')
export type SentimentOptions = Static<typeof SentimentOptions>
export const KeywordsOptions = FeatureOptions('keywords', {
  limit: CountOption('terms to return', KEYWORDS_LIMIT),
})
export type KeywordsOptions = Static<typeof KeywordsOptions>
export const LanguageOptions = FeatureOptions('language', {
  alternatives: CountOption('runner-up languages to list', LANGUAGE_ALTERNATIVES),
})
export type LanguageOptions = Static<typeof LanguageOptions>

// ---------------------------------------------------------------------------------------------
// stats

/** Silent reading speed used for `reading_time_seconds` (words per minute). */
export const READING_WORDS_PER_MINUTE = 238

export const StatsResult = Closed('StatsResult', {
  characters: Count(
    'User-perceived characters (Unicode extended grapheme clusters): an emoji with its ' +
      'modifiers, a letter with its combining accents and a CRLF line break each count as one',
  ),
  bytes: Count('Size of the text in UTF-8 bytes (what plan limits are measured in)'),
  words: Count(
    'Words as the Unicode word boundaries find them (ICU, with the dictionaries of the scripts ' +
      'written without spaces: Chinese, Japanese, Thai...); inner apostrophes keep a word ' +
      'whole (`don’t`) and two words joined by one hyphen count once (`well-known`)',
  ),
  sentences: Count(
    'Sentences as the Unicode sentence boundaries find them (ICU: . ! ? … and their CJK ' +
      'forms, followed by a space or a closing quote), plus a blank line; a full stop before ' +
      'a lower-case word (`5 p.m. today`), after an initial (`J. R. R.`) or after a common ' +
      'abbreviation (Dr., Mr., St.) does not end a sentence, nor does a line break inside a ' +
      'paragraph; a sentence counts when it holds a letter or a digit',
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
})
export type StatsResult = Static<typeof StatsResult>

// ---------------------------------------------------------------------------------------------
// sentiment

export const SENTIMENT_LABELS = ['positive', 'negative', 'neutral'] as const

export const SentimentResult = Closed('SentimentResult', {
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
})
export type SentimentResult = Static<typeof SentimentResult>

// ---------------------------------------------------------------------------------------------
// keywords

export const KeywordsResult = Closed('KeywordsResult', {
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
})
export type KeywordsResult = Static<typeof KeywordsResult>

// ---------------------------------------------------------------------------------------------
// language

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

export const LanguageResult = Closed('LanguageResult', {
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
})
export type LanguageResult = Static<typeof LanguageResult>
