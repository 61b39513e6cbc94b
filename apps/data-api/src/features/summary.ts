import { SUMMARY_DEFAULT_SENTENCES, type SummaryOptions, type SummaryResult } from '@repo/contracts'
import { stopWordLanguage } from './language.js'
import {
  collapseWhitespace,
  hasLetter,
  normalizeToken,
  splitSentences,
  stopWordsFor,
  wordsOf,
} from './text.js'

/*
 * Extractive summary by sentence scoring (after Luhn, 1958): the frequency of each content
 * word (stop words removed) in the whole text, relative to the most frequent one, is its
 * weight; a sentence scores the sum of its words' weights divided by the square root of its
 * length (long sentences are not favoured just for being long, nor short ones for being
 * short). The best N sentences are returned in their original order; a repeated sentence is
 * taken once.
 */

export function summary(data: string, options: SummaryOptions): SummaryResult {
  const wanted = options.sentences ?? SUMMARY_DEFAULT_SENTENCES
  const sentences = splitSentences(data).map(collapseWhitespace)
  if (sentences.length <= wanted) {
    return { sentences, count: sentences.length, total_sentences: sentences.length }
  }

  const stopWords = stopWordsFor(stopWordLanguage(data))
  const contentWords = sentences.map((sentence) =>
    wordsOf(sentence)
      .map(normalizeToken)
      .filter((word) => !stopWords.has(word) && hasLetter(word)),
  )
  const frequency = new Map<string, number>()
  let highest = 1
  for (const words of contentWords) {
    for (const word of words) {
      const count = (frequency.get(word) ?? 0) + 1
      frequency.set(word, count)
      if (count > highest) highest = count
    }
  }

  const seen = new Set<string>()
  const scored: Array<{ index: number; score: number }> = []
  sentences.forEach((sentence, index) => {
    const key = sentence.toLowerCase()
    if (seen.has(key)) return
    seen.add(key)
    const words = contentWords[index] ?? []
    let weight = 0
    for (const word of words) weight += (frequency.get(word) ?? 0) / highest
    scored.push({ index, score: words.length === 0 ? 0 : weight / Math.sqrt(words.length) })
  })

  const chosen = scored
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, wanted)
    .map(({ index }) => index)
    .sort((a, b) => a - b)
  const picked = chosen.map((index) => sentences[index] ?? '')
  return { sentences: picked, count: picked.length, total_sentences: sentences.length }
}
