import { latinSentenceEnds } from './latin-sentences.js'
import { meter } from './work.js'

/*
 * Paragraphs and sentences, shared by stats and summary so that both count the same sentences.
 *
 * A paragraph is a block of lines between blank lines. Sentences are found in each paragraph
 * by Intl.Segmenter (ICU's Unicode sentence boundaries, UAX #29: every script, CJK full stops,
 * closing quotes; a full stop before a lower-case word does not end a sentence, so "5 p.m.
 * yesterday" and "Wait... what?" stay whole), with two additions: a line break inside a
 * paragraph is read as a space (hard-wrapped text stays whole; a blank line still ends a
 * sentence), and a full stop after a single letter (initials) or a common abbreviation (Dr.,
 * Mr., St.) does not end one. A sentence counts when it holds a letter or a digit.
 */

/** One or more blank lines (a line holding only spaces or tabs is blank). */
const BLANK_LINES = /(?:\r\n|\r(?!\n)|\n)(?:[^\S\r\n]*(?:\r\n|\r(?!\n)|\n))+/
const LINE_BREAK = /\r\n|\r|\n/g
// Stryker disable next-line Regex: a paragraph always holds a character other than a line break, and replacing none changes nothing
const LINE_BREAK_TEST = /[\r\n]/
const CONTENT = /[\p{L}\p{N}]/u
const NON_SPACE = /\S/u
/** A segment that ends with an abbreviation's full stop: the next one continues it. */
const ABBREVIATION_END =
  /(?<![\p{L}\p{N}.])(?:\p{L}|mrs?|ms|mx|dr|prof|rev|hon|sr|jr|st|mt|gen|col|lt|sgt|capt|vs|cf|approx|fig|no)\.$/iu

let segmenter: Intl.Segmenter | undefined

/** True when the string holds at least one letter or digit. */
export function hasContent(text: string): boolean {
  return CONTENT.test(text)
}

/** The paragraphs of `text` that hold something other than whitespace. */
export function paragraphsOf(text: string): string[] {
  return text.split(BLANK_LINES).filter((paragraph) => NON_SPACE.test(paragraph))
}

const WHITESPACE = /\s/

/** An ASCII letter or digit: what hasContent finds, among the ASCII code units. */
export function isAsciiLetterOrDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a)
}

/** hasContent of `text.slice(start, end)`, without the slice while the text is ASCII. */
function hasContentBetween(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i)
    if (code >= 128) return hasContent(text.slice(i, end))
    if (isAsciiLetterOrDigit(code)) return true
  }
  return false
}

/** Where `text.slice(start, end).trimEnd()` ends. */
function trimmedEnd(text: string, start: number, end: number): number {
  let last = end
  while (last > start) {
    const code = text.charCodeAt(last - 1)
    if (code === 32 || (code >= 9 && code <= 13)) last--
    else if (code >= 128 && WHITESPACE.test(text[last - 1] as string)) last--
    else break
  }
  return last
}

/**
 * Whether the segment from `start` to `last` (its trailing whitespace left out) ends with an
 * abbreviation's full stop (`Dr.`, an initial): the sentence goes on in the next segment.
 */
function endsWithAbbreviation(text: string, start: number, last: number): boolean {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: the expression ends in a full stop; this test only saves work
  if (text.charCodeAt(last - 1) !== 0x2e) return false
  // Stryker disable next-line ArithmeticOperator,MethodExpression: the expression needs no more than 8 characters; the bound only saves work
  return ABBREVIATION_END.test(text.slice(Math.max(start, last - 8), last))
}

/**
 * The end of each of ICU's sentence segments of a flowed paragraph: found by
 * latin-sentences.ts's scanner when the paragraph is ASCII and English typography (the same
 * segments, a tenth of the cost), else by Intl.Segmenter.
 */
function segmentEnds(flowed: string): number[] {
  const ends = latinSentenceEnds(flowed)
  if (ends) return ends
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' })
  meter.add('icu-sentences', flowed.length)
  return Array.from(segmenter.segment(flowed), ({ index, segment }) => index + segment.length)
}

/**
 * The sentences of one paragraph: the paragraph flowed (line breaks read as spaces) and each
 * sentence's start and end in it, one after the other. A segment that ends with an
 * abbreviation's full stop is joined to the next; one without a letter or digit is dropped.
 */
function sentenceBounds(paragraph: string): { flowed: string; bounds: number[] } {
  const flowed = LINE_BREAK_TEST.test(paragraph) ? paragraph.replace(LINE_BREAK, ' ') : paragraph
  const bounds: number[] = []
  let sentenceStart = 0
  let start = 0
  let content = false
  for (const end of segmentEnds(flowed)) {
    content ||= hasContentBetween(flowed, start, end)
    const abbreviation = endsWithAbbreviation(flowed, start, trimmedEnd(flowed, start, end))
    start = end
    if (abbreviation) continue
    if (content) bounds.push(sentenceStart, end)
    content = false
    sentenceStart = end
  }
  if (content) bounds.push(sentenceStart, flowed.length)
  return { flowed, bounds }
}

/** The sentences of one paragraph, with their trailing whitespace. */
export function* sentencesOfParagraph(paragraph: string): Generator<string> {
  const { flowed, bounds } = sentenceBounds(paragraph)
  for (let i = 0; i < bounds.length; i += 2) yield flowed.slice(bounds[i], bounds[i + 1])
}

/** How many sentences one paragraph holds (sentencesOfParagraph's count, without the strings). */
export function countSentences(paragraph: string): number {
  return sentenceBounds(paragraph).bounds.length / 2
}

/** The sentences of `text`, paragraph by paragraph. */
export function* sentencesOf(text: string): Generator<string> {
  for (const paragraph of paragraphsOf(text)) yield* sentencesOfParagraph(paragraph)
}
