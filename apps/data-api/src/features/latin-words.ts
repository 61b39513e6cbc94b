/*
 * Words of a paragraph written in ASCII (plus the typographic quotes and dashes of English
 * prose), counted by a scanner instead of ICU's word segmenter: the same count as stats.ts's
 * ICU loop, a tenth of the cost. ICU's word segmentation was half of a 1 KB `stats` call's CPU
 * (`--cpu-prof` of the benchmark's `data-api/post-stats`, 2026-11-24).
 *
 * On these characters ICU applies UAX #29's word rules, which reduce to: letters, digits and
 * what joins them make one word-like segment; every other character is a segment of its own
 * (runs of spaces and CR LF are one segment, which counts the same). What joins (Word_Break):
 * - letters and digits in any order (WB5, WB8, WB9, WB10);
 * - `.` `'` `‘` `’` (MidNumLet, Single_Quote) and `:` (MidLetter) between two letters (WB6, WB7);
 * - `.` `'` `‘` `’` and `,` `;` (MidNum) between two digits (WB11, WB12).
 * `_` (ExtendNumLet) is left to ICU: one alone is not word-like there, two are.
 * test/unit/features/latin-words.test.ts pins the count to ICU's on generated text.
 */

const OTHER = 0
const LETTER = 1
const DIGIT = 2
/** `:`: joins letters only. */
const MID_LETTER = 3
/** `.` `'` `‘` `’`: join letters, and digits. */
const MID_NUM_LET = 4
/** `,` `;`: join digits only. */
const MID_NUM = 5
/** `-` `‐` `‑`: a segment of its own; stats counts two words joined by one as one. */
const HYPHEN = 6
/** Anything else: the paragraph goes to ICU. */
const UNKNOWN = 7

/** Every UTF-16 code unit's class (64 KB: a look-up is never out of bounds). */
const CLASS = new Uint8Array(0x10000).fill(UNKNOWN)
CLASS.fill(OTHER, 0x09, 0x0e) // tab, LF, VT, FF, CR
CLASS.fill(OTHER, 0x20, 0x7f) // printable ASCII, refined below
CLASS.fill(LETTER, 0x41, 0x5b)
CLASS.fill(LETTER, 0x61, 0x7b)
CLASS.fill(DIGIT, 0x30, 0x3a)
CLASS[0x3a] = MID_LETTER
for (const code of [0x2e, 0x27, 0x2018, 0x2019]) CLASS[code] = MID_NUM_LET
for (const code of [0x2c, 0x3b]) CLASS[code] = MID_NUM
for (const code of [0x2d, 0x2010, 0x2011]) CLASS[code] = HYPHEN
for (const code of [0x2013, 0x2014, 0x201c, 0x201d]) CLASS[code] = OTHER
CLASS[0x5f] = UNKNOWN // `_`

/** The class of the code unit at `i`, which must be inside the text. */
function classAt(text: string, i: number): number {
  return CLASS[text.charCodeAt(i)] as number
}

/** Whether `mid` between a `before` and an `after` keeps them in one word (WB6/7, WB11/12). */
function joins(before: number, mid: number, after: number): boolean {
  if (before === LETTER) return after === LETTER && (mid === MID_LETTER || mid === MID_NUM_LET)
  return after === DIGIT && (mid === MID_NUM || mid === MID_NUM_LET)
}

/**
 * The paragraph's words as stats.ts counts them (word-like segments, two joined by a single
 * hyphen counted once), or undefined when it holds a character this scanner leaves to ICU.
 */
export function countLatinWords(paragraph: string): number | undefined {
  const length = paragraph.length
  let words = 0
  let afterWord = false
  let hyphenAfterWord = false
  let i = 0
  // Stryker disable next-line EqualityOperator: one step past the end reads NaN, not a letter: nothing more is counted
  while (i < length) {
    let kind = classAt(paragraph, i)
    if (kind === UNKNOWN) return undefined
    if (kind !== LETTER && kind !== DIGIT) {
      hyphenAfterWord = afterWord && kind === HYPHEN
      afterWord = false
      i++
      continue
    }
    // A word: extend it while the next character, or a joining one and the one after, belong.
    // What follows it is a segment of its own (or the end), which sets hyphenAfterWord again.
    // Never read past the end: `charCodeAt` out of range (NaN) made the whole scan three times
    // slower (7.7 against 2.8 µs per KB of English), so the bounds are checked although a NaN
    // would end the word the same way.
    i++
    // Stryker disable next-line EqualityOperator: past the end the class is not a letter's, which ends the word too
    while (i < length) {
      const next = classAt(paragraph, i)
      if (next === LETTER || next === DIGIT) {
        kind = next
        i++
        continue
      }
      // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: the bound only keeps the read in range (see above)
      if (i + 1 < length && joins(kind, next, classAt(paragraph, i + 1))) i += 2
      else break
    }
    if (!hyphenAfterWord) words++
    afterWord = true
  }
  return words
}
