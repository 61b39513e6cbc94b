import { SUMMARY_DEFAULT_SENTENCES, type SummaryOptions, type SummaryResult } from '@repo/contracts'
import { stopWordLanguage } from './language.js'
import { sentencesOf } from './sentences.js'
import {
  collapseWhitespace,
  hasLetter,
  normalizeToken,
  stopWordsFor,
  WORD_PATTERN,
} from './text.js'
import { meter } from './work.js'

/*
 * Extractive summary by sentence scoring (after Luhn, 1958): the frequency of each content
 * word (stop words removed) in the whole text, relative to the most frequent one, is its
 * weight; a sentence scores the sum of its words' weights divided by the square root of its
 * length (long sentences are not favoured just for being long, nor short ones for being
 * short). The best N sentences are returned in their original order; a repeated sentence is
 * taken once. Sentences are those stats counts (sentences.ts). Every step is one pass over the
 * sentences, and picking the best N keeps only N candidates, so the work grows linearly.
 */

interface Scored {
  index: number
  score: number
}

/** Whether `a` ranks before `b`: a higher score (of two equal ones, the one kept first stays). */
const better = (a: Scored, b: Scored) => a.score > b.score

/**
 * The `wanted` best of `items` (given in order), best first: insertion into a list of at most
 * `wanted`, so that an item scoring the same as one already kept ranks after it.
 */
function best(items: Iterable<Scored>, wanted: number): Scored[] {
  const top: Scored[] = []
  for (const item of items) {
    let at = top.length
    while (at > 0 && better(item, top[at - 1] as Scored)) at--
    top.splice(at, 0, item)
    if (top.length > wanted) top.pop()
  }
  return top
}

export function summary(data: string, options: SummaryOptions): SummaryResult {
  const wanted = options.sentences ?? SUMMARY_DEFAULT_SENTENCES
  const sentences = Array.from(sentencesOf(data), collapseWhitespace)
  if (sentences.length <= wanted) {
    return { sentences, count: sentences.length, total_sentences: sentences.length }
  }

  const stopWords = stopWordsFor(stopWordLanguage(data))
  meter.add('summary-words', data.length)
  const contentWords = sentences.map((sentence) => {
    const words: string[] = []
    for (const [word] of sentence.matchAll(WORD_PATTERN)) {
      const token = normalizeToken(word)
      if (!stopWords.has(token) && hasLetter(token)) words.push(token)
    }
    return words
  })
  const frequency = new Map<string, number>()
  let highest = 1
  for (const words of contentWords) {
    for (const word of words) {
      const count = (frequency.get(word) ?? 0) + 1
      frequency.set(word, count)
      // Stryker disable next-line ConditionalExpression,EqualityOperator: highest scales every score alike, so the ranking is the same
      if (count > highest) highest = count
    }
  }

  const seen = new Set<string>()
  function* scored(): Generator<Scored> {
    for (const [index, sentence] of sentences.entries()) {
      const key = sentence.toLowerCase()
      if (seen.has(key)) continue
      seen.add(key)
      const words = contentWords[index] as string[]
      let weight = 0
      // Stryker disable next-line ArithmeticOperator: dividing or multiplying every score by highest keeps the ranking
      for (const word of words) weight += (frequency.get(word) ?? 0) / highest
      yield { index, score: words.length === 0 ? 0 : weight / Math.sqrt(words.length) }
    }
  }

  const chosen = best(scored(), wanted)
    .map(({ index }) => index)
    .sort((a, b) => a - b)
  const picked = chosen.map((index) => sentences[index] as string)
  return { sentences: picked, count: picked.length, total_sentences: sentences.length }
}
