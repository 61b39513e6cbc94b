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

/** The sentences of one paragraph, with their trailing whitespace. */
export function* sentencesOfParagraph(paragraph: string): Generator<string> {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' })
  const flowed = LINE_BREAK_TEST.test(paragraph) ? paragraph.replace(LINE_BREAK, ' ') : paragraph
  meter.add('icu-sentences', flowed.length)
  let pending = ''
  for (const { segment } of segmenter.segment(flowed)) {
    pending += segment
    const end = segment.trimEnd()
    // Stryker disable next-line StringLiteral,MethodExpression: the expression ends in a full stop and needs no more than 8 characters; the test and the slice only save work
    if (end.endsWith('.') && ABBREVIATION_END.test(end.slice(-8))) continue
    if (hasContent(pending)) yield pending
    pending = ''
  }
  if (hasContent(pending)) yield pending
}

/** The sentences of `text`, paragraph by paragraph. */
export function* sentencesOf(text: string): Generator<string> {
  for (const paragraph of paragraphsOf(text)) yield* sentencesOfParagraph(paragraph)
}
