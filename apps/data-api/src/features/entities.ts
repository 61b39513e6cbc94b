import {
  ENTITIES_MAX_ANALYZED_CHARACTERS,
  type EntitiesOptions,
  type EntitiesResult,
} from '@repo/contracts'
import nlp from 'compromise'
import { splitSentences, stopWordsFor, WORD_PATTERN } from './text.js'

/*
 * compromise tags the text (lexicon, suffix rules, capitalisation, context) and finds people,
 * places and organisations; this file keeps its cost in check and tidies its output.
 *
 * compromise tags about 100 KB a second, so only sentences that may hold a name are tagged: a
 * sentence qualifies when a word after the first is capitalised (other than "I"), or when its
 * first word is capitalised and not a common word. Identical sentences are tagged once, in
 * batches, and at most ENTITIES_MAX_ANALYZED_CHARACTERS of them (the result says `truncated`
 * when there were more). Names lose surrounding punctuation, a possessive 's and, for people,
 * titles (Dr., Mr.); a "name" without a capital letter is dropped; each list is deduplicated
 * ignoring case, keeping the first spelling seen.
 */

const BATCH_CHARACTERS = 20_000
const MAX_SENTENCE_CHARACTERS = 500
const UPPERCASE_START = /^\p{Lu}/u
const PRONOUN_I = new Set(['I', "I'm", 'I’m', "I'll", 'I’ll', "I've", 'I’ve', "I'd", 'I’d'])
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu
const POSSESSIVE = /['’]s$/u
const HAS_UPPERCASE = /\p{Lu}/u
const english = stopWordsFor('eng')

function mayHoldNames(sentence: string): boolean {
  let first = true
  for (const [word] of sentence.matchAll(WORD_PATTERN)) {
    if (UPPERCASE_START.test(word)) {
      if (first ? !english.has(word.toLowerCase()) : !PRONOUN_I.has(word)) return true
    }
    first = false
  }
  return false
}

/**
 * A "sentence" longer than MAX_SENTENCE_CHARACTERS (a list, a table, text without full stops)
 * cut at spaces into pieces about that long: compromise's time grows faster than the length
 * of a sentence.
 */
function pieces(sentence: string): string[] {
  if (sentence.length <= MAX_SENTENCE_CHARACTERS) return [sentence]
  const result: string[] = []
  let start = 0
  while (start < sentence.length) {
    let end = Math.min(sentence.length, start + MAX_SENTENCE_CHARACTERS)
    if (end < sentence.length) {
      const space = sentence.lastIndexOf(' ', end)
      if (space > start) end = space + 1
    }
    result.push(sentence.slice(start, end))
    start = end
  }
  return result
}

function tidy(name: string): string {
  return name.replace(/\s+/g, ' ').replace(EDGE_PUNCTUATION, '').replace(POSSESSIVE, '').trim()
}

class Collector {
  private readonly seen = new Set<string>()
  readonly names: string[] = []

  add(raw: string): void {
    const name = tidy(raw)
    if (name.length < 2 || !HAS_UPPERCASE.test(name)) return
    const key = name.toLowerCase()
    if (this.seen.has(key)) return
    this.seen.add(key)
    this.names.push(name)
  }
}

export function entities(data: string, _options: EntitiesOptions): EntitiesResult {
  const unique = new Set<string>()
  let analyzed = 0
  let truncated = false
  for (const sentence of splitSentences(data).flatMap(pieces)) {
    const trimmed = sentence.trim()
    if (unique.has(trimmed) || !mayHoldNames(trimmed)) continue
    if (analyzed + trimmed.length > ENTITIES_MAX_ANALYZED_CHARACTERS) {
      truncated = true
      break
    }
    unique.add(trimmed)
    analyzed += trimmed.length
  }

  const people = new Collector()
  const places = new Collector()
  const organisations = new Collector()
  const run = (batch: string[]) => {
    if (batch.length === 0) return
    // One sentence a line keeps a sentence without a full stop apart from the next.
    const doc = nlp(batch.join('\n'))
    for (const name of doc.people().not('#Honorific').out('array') as string[]) people.add(name)
    for (const name of doc.places().out('array') as string[]) places.add(name)
    for (const name of doc.organizations().out('array') as string[]) organisations.add(name)
  }
  let batch: string[] = []
  let size = 0
  for (const sentence of unique) {
    batch.push(sentence)
    size += sentence.length
    if (size >= BATCH_CHARACTERS) {
      run(batch)
      batch = []
      size = 0
    }
  }
  run(batch)

  return {
    people: people.names,
    places: places.names,
    organisations: organisations.names,
    truncated,
  }
}
