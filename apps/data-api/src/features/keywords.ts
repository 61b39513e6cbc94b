import { KEYWORDS_DEFAULT_LIMIT, type KeywordsOptions, type KeywordsResult } from '@repo/contracts'
import { stopWordLanguage } from './language.js'
import { hasLetter, normalizeToken, stopWordsFor, WORD_PATTERN } from './text.js'
import { meter } from './work.js'

/*
 * Term frequency after stop-word removal. The language is detected (franc) so a French text
 * loses "les" and "des" as an English one loses "the"; the `stopword` package supplies the
 * lists. Terms are lower-cased words of two letters or more, not numbers, with an English
 * possessive `'s` removed. Ties are broken by first appearance, so the answer is stable.
 */

const POSSESSIVE = /'s$/

export function keywords(data: string, options: KeywordsOptions): KeywordsResult {
  const limit = options.limit ?? KEYWORDS_DEFAULT_LIMIT
  const language = stopWordLanguage(data)
  const stopWords = stopWordsFor(language)

  // Map iteration order is insertion order: first appearance breaks ties.
  const counts = new Map<string, number>()
  meter.add('keywords-words', data.length)
  let total = 0
  for (const [word] of data.matchAll(WORD_PATTERN)) {
    let term = normalizeToken(word)
    if (stopWords.has(term)) continue
    term = term.replace(POSSESSIVE, '')
    if (term.length < 2 || stopWords.has(term) || !hasLetter(term)) continue
    total++
    counts.set(term, (counts.get(term) ?? 0) + 1)
  }

  const ranked = [...counts.entries()]
    .map(([term, count], order) => ({ term, count, order }))
    .sort((a, b) => b.count - a.count || a.order - b.order)
    .slice(0, limit)
  return {
    keywords: ranked.map(({ term, count }) => ({ term, count })),
    language,
    total_terms: total,
    unique_terms: counts.size,
  }
}
