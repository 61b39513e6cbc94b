import type { SentimentOptions, SentimentResult } from '@repo/contracts'
import Sentiment from 'sentiment'

/*
 * AFINN-165 word valences and the Emoji Sentiment Ranking, as the `sentiment` package scores
 * them (with its English negation rule: "not good" counts -3). The package's own tokenizer only
 * splits on spaces and ASCII punctuation, so the text is normalised first: every whitespace
 * run becomes one space, other punctuation (typographic quotes, dashes...) becomes a space,
 * quotes around words are dropped, and emoji are set apart from the words they touch.
 */

const analyzer = new Sentiment()

/** Punctuation except apostrophes and hyphens (which belong to words: don't, well-known). */
const PUNCTUATION = /[^\P{P}'’-]+/gu
/** An apostrophe that is not inside a word: an opening or closing quote. */
const QUOTE_APOSTROPHE = /(?<![\p{L}\p{N}])['’]|['’](?![\p{L}\p{N}])/gu
const EMOJI = /\p{Extended_Pictographic}/gu
const WHITESPACE = /\s+/g

function normalize(text: string): string {
  return text
    .replace(PUNCTUATION, ' ')
    .replace(QUOTE_APOSTROPHE, ' ')
    .replaceAll('’', "'")
    .replace(EMOJI, ' $& ')
    .replace(WHITESPACE, ' ')
}

/** Distinct entries in order of first appearance. */
function distinct(words: readonly string[]): string[] {
  return [...new Set(words)]
}

export function sentiment(data: string, _options: SentimentOptions): SentimentResult {
  const analysis = analyzer.analyze(normalize(data))
  const score = analysis.score
  // The package walks the tokens from the last to the first: reverse to get text order.
  return {
    score,
    comparative: Math.round(analysis.comparative * 10_000) / 10_000,
    label: score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral',
    positive_words: distinct(analysis.positive.toReversed()),
    negative_words: distinct(analysis.negative.toReversed()),
  }
}
