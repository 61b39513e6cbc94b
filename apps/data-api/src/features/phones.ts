import { REDACT_PHONE_FINDER_CHARACTERS, REDACT_PHONE_RUN_CHARACTERS } from '@repo/contracts'
import { findPhoneNumbersInText } from 'libphonenumber-js'
import { meter } from './work.js'

/*
 * Phone numbers, found by libphonenumber-js (Google's libphonenumber metadata): its finder
 * (findPhoneNumbersInText) with leniency "valid" (a number that can exist in its country: +44 20 7946 0958 yes, the
 * fictional (555) 123-4567 no), national numbers read as North American (the default region).
 *
 * The finder costs about 0.1 ms per phone-like stretch of text, and far more inside long runs
 * of digit groups (about 14 µs a character: 1 MB of "12 34 " would take 14 s). So it is handed
 * only the phone-like runs of the text (digits, single separators, brackets, a leading +), one
 * at a time, when they are at most REDACT_PHONE_RUN_CHARACTERS long, and at most
 * REDACT_PHONE_FINDER_CHARACTERS of them per text. Longer runs, and every run past that count, are
 * judged by their shape alone (PHONE_SHAPE): masking too much rather than leaking. A bare run
 * of digits (no + and no separator) is not taken for a phone number: it is as likely an order
 * or account number.
 */

type Span = [start: number, end: number]

/** A phone-like run: a digit (after + or an opening bracket), then digits and separators. */
// Stryker disable next-line Regex: a run of one digit is never a phone number, whether it is a run or not
const RUN = /(?<![\p{L}\p{N}_+])(?:\+\(?|\()?\d(?:[\d ()./-]*\d)?\)?/gu
const BARE_DIGITS = /^\d+$/

/**
 * The shape of a phone number, for runs the finder does not see: + and 7 to 15 digits with at
 * most two separators between digits (+44 20 7946 0958, +33 (0)1 23 45 67 89), or North
 * American ((212) 555-0123, 212-555-0123, 212.555.0123, +1 212 555 0123, 1-800-555-0199).
 */
const PHONE_SHAPE =
  /(?<![\p{L}\p{N}+_])(?:\+\d(?:[ .\-()]{0,2}\d){6,14}|(?:\+?1[ .-]?)?(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4})(?![\p{L}\p{N}_]|[ .-]\d)/gu

function byShape(run: string, offset: number, spans: Span[]): void {
  meter.add('phone-shape', run.length)
  for (const match of run.matchAll(PHONE_SHAPE)) {
    spans.push([offset + match.index, offset + match.index + match[0].length])
  }
}

function byFinder(run: string, offset: number, spans: Span[]): void {
  meter.add('libphonenumber', run.length)
  // Its default leniency is "valid".
  const found = findPhoneNumbersInText(run, { defaultCountry: 'US' })
  for (const { startsAt, endsAt } of found) {
    if (BARE_DIGITS.test(run.slice(startsAt, endsAt))) continue
    spans.push([offset + startsAt, offset + endsAt])
  }
}

function hasSevenDigits(run: string): boolean {
  let digits = 0
  // Stryker disable next-line EqualityOperator: past the end charCodeAt is NaN, no digit
  for (let i = 0; i < run.length && digits < 7; i++) {
    const code = run.charCodeAt(i)
    if (code >= 48 && code <= 57) digits++
  }
  return digits === 7
}

/** Spans of the phone numbers in `data`, in order. */
export function findPhones(data: string): Span[] {
  const spans: Span[] = []
  let budget = REDACT_PHONE_FINDER_CHARACTERS
  for (const match of data.matchAll(RUN)) {
    const run = match[0]
    if (!hasSevenDigits(run) || BARE_DIGITS.test(run)) continue
    if (run.length <= REDACT_PHONE_RUN_CHARACTERS && run.length <= budget) {
      budget -= run.length
      byFinder(run, match.index, spans)
    } else {
      byShape(run, match.index, spans)
    }
  }
  return spans
}
