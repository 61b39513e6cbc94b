import {
  ENTITIES_MAX_ANALYZED_CHARACTERS,
  type EntitiesOptions,
  type EntitiesResult,
} from '@repo/contracts'
import nlp from 'compromise'
import { stopWordsFor } from './text.js'
import { meter } from './work.js'

/*
 * compromise tags the text (lexicon, suffix rules, capitalisation, context) and finds people,
 * places and organisations; this file keeps its cost in check and tidies its output.
 *
 * compromise tags about 100 KB a second, so it never sees the whole text: only a window of
 * context (CONTEXT characters either side, within the line) around each capitalised word or
 * run of capitalised words (besides "I" and common words such as "The") seen for the first
 * time, the windows that touch merged into pieces of at most MAX_PIECE characters. At most
 * ENTITIES_MAX_ANALYZED_CHARACTERS of them are tagged (the result says `truncated` when there
 * were more), in batches. Finding the windows is one pass of one regular expression. Names
 * lose surrounding punctuation, a possessive 's and, for people, titles (Dr., Mr.); a "name"
 * without a capital letter is dropped; each list is deduplicated ignoring case, keeping the
 * first spelling seen.
 */

const CONTEXT = 30
const MAX_PIECE = 400
const BATCH_CHARACTERS = 5_000
/** A capitalised word, or up to five in a row. */
const CAPITALISED = /\p{Lu}[\p{L}\p{M}\p{N}'’-]*(?:[ \t]+\p{Lu}[\p{L}\p{M}\p{N}'’-]*){0,4}/gu
/** "I" with a typographic apostrophe (the English stop words hold "i" and the forms with a plain one). */
const PRONOUN_I = new Set(['i’m', 'i’ll', 'i’ve', 'i’d'])
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu
const POSSESSIVE = /['’]s$/u
const HAS_UPPERCASE = /\p{Lu}/u
// Stryker disable next-line StringLiteral: stopWordsFor of a language without a list is the English list too
const english = stopWordsFor('eng')

/** The window of context around data[start, end): within the line, cut at spaces. */
function windowAround(data: string, start: number, end: number): [number, number] {
  let from = Math.max(0, start - CONTEXT)
  let to = Math.min(data.length, end + CONTEXT)
  const before = data.slice(from, start)
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'))
  if (lineStart >= 0) from += lineStart + 1
  else if (from > 0) from += Math.max(0, before.indexOf(' ') + 1)
  const after = data.slice(end, to)
  const lineEnd = after.search(/[\r\n]/)
  if (lineEnd >= 0) to = end + lineEnd
  else if (to < data.length) to = end + Math.max(0, after.lastIndexOf(' '))
  return [from, to]
}

/** Pieces of text worth tagging, in order, and whether some were left out. */
export function piecesOf(data: string): { pieces: string[]; truncated: boolean } {
  const seen = new Set<string>()
  const pieces: string[] = []
  let analyzed = 0
  let current: [number, number] | undefined
  const flush = () => {
    if (current) pieces.push(data.slice(current[0], current[1]))
    current = undefined
  }
  for (const match of data.matchAll(CAPITALISED)) {
    const key = match[0].toLowerCase()
    if (seen.has(key) || english.has(key) || PRONOUN_I.has(key)) continue
    seen.add(key)
    const [from, to] = windowAround(data, match.index, match.index + match[0].length)
    // Stryker disable next-line EqualityOperator: when from is current[1], either one is the start
    const start = current && from <= current[1] ? current[1] : from
    if (analyzed + (to - start) > ENTITIES_MAX_ANALYZED_CHARACTERS) {
      flush()
      return { pieces, truncated: true }
    }
    analyzed += Math.max(0, to - start)
    if (current && from <= current[1] && to - current[0] <= MAX_PIECE) {
      current[1] = Math.max(current[1], to)
    } else {
      flush()
      current = [start, to]
    }
  }
  flush()
  return { pieces, truncated: false }
}

function tidy(name: string): string {
  // Stryker disable next-line MethodExpression: compromise gives no name with a space before a final 's, the only way one would be left at an edge
  return name.replace(/\s+/g, ' ').replace(EDGE_PUNCTUATION, '').replace(POSSESSIVE, '').trim()
}

class Collector {
  private readonly seen = new Set<string>()
  readonly names: string[] = []

  add(raw: string): void {
    const name = tidy(raw)
    if (name.length < 2 || !HAS_UPPERCASE.test(name)) return
    // Stryker disable next-line MethodExpression: upper or lower case, the key ignores case alike for the names compromise finds
    const key = name.toLowerCase()
    if (this.seen.has(key)) return
    this.seen.add(key)
    this.names.push(name)
  }
}

export function entities(data: string, _options: EntitiesOptions): EntitiesResult {
  meter.add('entities-scan', data.length)
  const { pieces, truncated } = piecesOf(data)
  const people = new Collector()
  const places = new Collector()
  const organisations = new Collector()
  const tag = (batch: string[]) => {
    if (batch.length === 0) return
    // One piece a line keeps a piece without a full stop apart from the next.
    const text = batch.join('\n')
    meter.add('compromise', text.length)
    const doc = nlp(text)
    for (const name of doc.people().not('#Honorific').out('array') as string[]) people.add(name)
    for (const name of doc.places().out('array') as string[]) places.add(name)
    for (const name of doc.organizations().out('array') as string[]) organisations.add(name)
  }
  let batch: string[] = []
  let size = 0
  for (const piece of pieces) {
    batch.push(piece)
    size += piece.length
    if (size >= BATCH_CHARACTERS) {
      tag(batch)
      batch = []
      size = 0
    }
  }
  tag(batch)
  return {
    people: people.names,
    places: places.names,
    organisations: organisations.names,
    truncated,
  }
}
