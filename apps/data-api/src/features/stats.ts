import { READING_WORDS_PER_MINUTE, type StatsOptions, type StatsResult } from '@repo/contracts'

/*
 * Plain counting, on the hot path of the benchmark: one pass over the UTF-16 code units counts
 * characters, words, letters, sentences, lines and paragraphs, with each code point classified
 * once (a lazily filled table for the Basic Multilingual Plane). Only text in a script written
 * without spaces (Chinese, Japanese, Thai...) goes to Intl.Segmenter, whose dictionaries find
 * its words.
 *
 * A sentence ends at `.`, `!`, `?`, `…` or `‽` (possibly followed by closing quotes or
 * brackets) before whitespace or the end of the text, at `。`, `！` or `？`, and at a blank
 * line; a lone `.` after a single letter (initials, e.g., i.e.) or a common abbreviation (Dr.,
 * Mr., St.) does not end one. A sentence counts when it has a letter or a digit.
 *
 * Characters are user-perceived characters, following the Unicode grapheme cluster rules that
 * matter in practice: CRLF is one; combining marks, zero-width joiners and what follows them,
 * emoji modifiers and tag characters join the character before; regional indicators pair up
 * into flags; Hangul vowel and final jamo join the syllable before; an Indic virama joins the
 * next consonant.
 */

// Code point classes.
const OTHER = 0
const WORD = 1 // letter or digit: part of a word and counted in its length
const MARK = 2 // combining mark: continues a word, not counted; joins the previous character
const JOINER = 3 // apostrophe or hyphen: inside a word when between word characters
const SPACE = 4 // whitespace other than line breaks
const SPACELESS = 5 // letter of a script written without spaces
const JOINING = 6 // not a character of its own: ZWJ, ZWNJ, emoji modifier, tag, jamo V/T
const REGIONAL = 7 // regional indicator (half a flag)
const PICTOGRAPHIC = 8 // emoji and other pictographs (a zero-width joiner joins two of them)
const TERMINATOR = 9 // . ! ? … ‽: ends a sentence before whitespace
const CJK_TERMINATOR = 10 // 。！？: ends a sentence
const CLOSER = 11 // closing quote or bracket, allowed between a terminator and whitespace
const UNKNOWN = 255

const IS_WORD = /^[\p{L}\p{N}]$/u
const IS_MARK = /^\p{M}$/u
const IS_SPACE = /^\s$/u
const IS_PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u
const IS_SPACELESS =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]$/u

const TERMINATORS = [0x2e, 0x21, 0x3f, 0x2026, 0x203d]
const CJK_TERMINATORS = [0x3002, 0xff01, 0xff1f]
const CLOSERS = [0x22, 0x29, 0x5d, 0x201d, 0xbb]

function classify(codePoint: number): number {
  if (codePoint === 0x200c || codePoint === 0x200d) return JOINING
  if (codePoint === 0x27 || codePoint === 0x2d || codePoint === 0x2019) return JOINER
  if (TERMINATORS.includes(codePoint)) return TERMINATOR
  if (CJK_TERMINATORS.includes(codePoint)) return CJK_TERMINATOR
  if (CLOSERS.includes(codePoint)) return CLOSER
  if (
    (codePoint >= 0x1f3fb && codePoint <= 0x1f3ff) ||
    (codePoint >= 0xe0020 && codePoint <= 0xe007f) ||
    (codePoint >= 0x1160 && codePoint <= 0x11ff) ||
    (codePoint >= 0xd7b0 && codePoint <= 0xd7ff)
  ) {
    return JOINING
  }
  if (codePoint >= 0x1f1e6 && codePoint <= 0x1f1ff) return REGIONAL
  const char = String.fromCodePoint(codePoint)
  if (IS_SPACELESS.test(char)) return SPACELESS
  if (IS_WORD.test(char)) return WORD
  if (IS_MARK.test(char)) return MARK
  if (IS_SPACE.test(char)) return SPACE
  if (IS_PICTOGRAPHIC.test(char)) return PICTOGRAPHIC
  return OTHER
}

/** Viramas that link consonants into one character (Unicode's InCB=Linker). */
const VIRAMAS = new Set([0x094d, 0x09cd, 0x0acd, 0x0b4d, 0x0c4d, 0x0d4d])

/** A consonant of a script whose virama forms conjuncts (Devanagari ... Malayalam). */
function isIndicConsonant(code: number): boolean {
  if (code < 0x0900 || code > 0x0d7f) return false
  const offset = code & 0x7f
  return (offset >= 0x15 && offset <= 0x39) || (offset >= 0x58 && offset <= 0x5f)
}

// Hangul syllable types: leading consonant, vowel, trailing consonant, LV and LVT syllables.
const L = 1
const V = 2
const T = 3
const LV = 4
const LVT = 5

function hangulType(code: number): number {
  if ((code >= 0x1100 && code <= 0x115f) || (code >= 0xa960 && code <= 0xa97c)) return L
  if ((code >= 0x1160 && code <= 0x11a7) || (code >= 0xd7b0 && code <= 0xd7c6)) return V
  if ((code >= 0x11a8 && code <= 0x11ff) || (code >= 0xd7cb && code <= 0xd7fb)) return T
  if (code >= 0xac00 && code <= 0xd7a3) return (code - 0xac00) % 28 === 0 ? LV : LVT
  return 0
}

/** Whether a Hangul code point of type `next` continues the syllable of type `previous`. */
function hangulJoins(previous: number, next: number): boolean {
  if (previous === L) return next === L || next === V || next === LV || next === LVT
  if (previous === V || previous === LV) return next === V || next === T
  if (previous === T || previous === LVT) return next === T
  return false
}

/** Classes of the Basic Multilingual Plane, filled on first sight. */
const BMP = new Uint8Array(0x10000).fill(UNKNOWN)
for (let code = 0; code < 0x80; code++) BMP[code] = classify(code)
/** Classes of astral code points seen so far (emoji mostly). */
const ASTRAL = new Map<number, number>()

function classOf(codePoint: number): number {
  if (codePoint < 0x10000) {
    const known = BMP[codePoint] as number
    if (known !== UNKNOWN) return known
    const found = classify(codePoint)
    BMP[codePoint] = found
    return found
  }
  let found = ASTRAL.get(codePoint)
  if (found === undefined) {
    found = classify(codePoint)
    if (ASTRAL.size < 10_000) ASTRAL.set(codePoint, found)
  }
  return found
}

/** Abbreviations whose dot does not end a sentence (besides single letters). */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'mx',
  'dr',
  'prof',
  'rev',
  'hon',
  'sr',
  'jr',
  'st',
  'mt',
  'gen',
  'col',
  'lt',
  'sgt',
  'capt',
  'vs',
  'cf',
  'approx',
  'fig',
])

/** Whether the word data[start, end) before a dot makes it an abbreviation's dot. */
function isAbbreviation(data: string, start: number, end: number): boolean {
  if (end - start === 1) {
    const code = data.charCodeAt(start)
    return code < 0x30 || code > 0x39
  }
  return end - start <= 6 && ABBREVIATIONS.has(data.slice(start, end).toLowerCase())
}

let wordSegmenter: Intl.Segmenter | undefined

/** Words and their letters by ICU's word boundaries (for scripts written without spaces). */
function segmentWords(text: string): { words: number; letters: number } {
  wordSegmenter ??= new Intl.Segmenter('und', { granularity: 'word' })
  let words = 0
  let letters = 0
  for (const segment of wordSegmenter.segment(text)) {
    if (!segment.isWordLike) continue
    words++
    for (const char of segment.segment) {
      const kind = classOf(char.codePointAt(0) as number)
      if (kind === WORD || kind === SPACELESS) letters++
    }
  }
  return { words, letters }
}

export function stats(data: string, _options: StatsOptions): StatsResult {
  const length = data.length
  let ascii = true
  let spaceless = false
  // characters
  let characters = 0
  let canExtend = false
  let afterZwj = false
  let afterVirama = false
  let pictographicBase = false
  let consonantBlock = -1
  let previousHangul = 0
  let regionalPending = false
  // words
  let words = 0
  let letters = 0
  let inWord = false
  let pendingJoiner = false
  let wordStart = 0
  let wordEnd = -1
  // sentences: `run` is 0 outside a terminator run, 1 in its terminators, 2 in its closers
  let sentences = 0
  let sentenceHasContent = false
  let run = 0
  let runIsDot = false
  let runAfterWord = false
  // lines and paragraphs
  let breaks = 0
  let paragraphs = 0
  let inParagraph = false
  let lineHasContent = false
  let lastWasBreak = false

  for (let i = 0; i < length; i++) {
    const start = i
    let code = data.charCodeAt(i)
    const lineBreak = code === 10 || code === 13

    // A terminator run ends a sentence when whitespace (or the end) follows it.
    if (run !== 0) {
      const kind = code < 0x80 ? (BMP[code] as number) : classOf(code)
      if (kind === TERMINATOR || kind === CLOSER || code === 0x27 || code === 0x2019) {
        // handled below
      } else {
        if (lineBreak || kind === SPACE) {
          const abbreviation = runIsDot && runAfterWord && isAbbreviation(data, wordStart, wordEnd)
          if (!abbreviation && sentenceHasContent) {
            sentences++
            sentenceHasContent = false
          }
        }
        run = 0
      }
    }

    if (lineBreak) {
      if (code === 13 && data.charCodeAt(i + 1) === 10) i++
      characters++
      breaks++
      if (lineHasContent) {
        if (!inParagraph) paragraphs++
        inParagraph = true
      } else {
        inParagraph = false
        // A blank line ends a sentence.
        if (sentenceHasContent) {
          sentences++
          sentenceHasContent = false
        }
      }
      lineHasContent = false
      lastWasBreak = true
      inWord = false
      pendingJoiner = false
      canExtend = false
      afterZwj = false
      afterVirama = false
      regionalPending = false
      continue
    }
    lastWasBreak = false
    if (code >= 0x80) {
      ascii = false
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
        const low = data.charCodeAt(i + 1)
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000
          i++
        }
      }
    }
    const kind = code < 0x80 ? (BMP[code] as number) : classOf(code)

    // Characters (grapheme clusters). Marks and joiners extend the character before, unless
    // there is none (start, after a line break or a control character). After a zero-width
    // joiner a pictograph joins in; after a virama of the Indic scripts that form conjuncts,
    // a consonant does; Hangul jamo join by the syllable rules; regional indicators pair.
    if (code < 0x80) {
      if (code < 0x20 || code === 0x7f) canExtend = false
      else canExtend = true
      characters++
      afterZwj = false
      afterVirama = false
      pictographicBase = false
      consonantBlock = -1
      previousHangul = 0
      regionalPending = false
    } else {
      const hangul = code >= 0x1100 && code <= 0xd7fb ? hangulType(code) : 0
      if (code <= 0x9f) {
        characters++
        canExtend = false
        afterZwj = false
        afterVirama = false
        regionalPending = false
      } else if (canExtend && hangul !== 0 && hangulJoins(previousHangul, hangul)) {
        // same syllable
      } else if ((kind === MARK || kind === JOINING) && canExtend && hangul === 0) {
        afterZwj = code === 0x200d && pictographicBase
        afterVirama =
          (VIRAMAS.has(code) && consonantBlock === (code & 0xff80)) ||
          (afterVirama && code !== 0x200c)
        regionalPending = false
      } else {
        const consonant = isIndicConsonant(code)
        const joined =
          (afterZwj && kind === PICTOGRAPHIC) ||
          (afterVirama && consonant && consonantBlock === (code & 0xff80))
        afterZwj = false
        afterVirama = false
        canExtend = true
        if (!joined) pictographicBase = kind === PICTOGRAPHIC
        consonantBlock = consonant ? code & 0xff80 : -1
        if (kind === REGIONAL) {
          if (!regionalPending) characters++
          regionalPending = !regionalPending
        } else {
          regionalPending = false
          if (!joined) characters++
        }
      }
      previousHangul = hangul
    }

    // Words: joiners (ZWJ, ZWNJ, jamo) inside a word keep it going; an apostrophe or a hyphen
    // does when a word character follows. Sentences: see the terminator runs.
    if (kind === WORD || kind === SPACELESS || (kind === MARK && inWord)) {
      if (!inWord) {
        words++
        wordStart = start
      }
      inWord = true
      pendingJoiner = false
      wordEnd = i + 1
      if (kind !== MARK) {
        letters++
        sentenceHasContent = true
      }
      if (kind === SPACELESS) spaceless = true
    } else if ((kind === JOINER || kind === JOINING) && inWord && !pendingJoiner) {
      pendingJoiner = kind === JOINER
    } else {
      inWord = false
      pendingJoiner = false
      if (kind === TERMINATOR) {
        if (run === 1) runIsDot = false
        else {
          runIsDot = code === 0x2e
          runAfterWord = wordEnd === start
        }
        run = 1
      } else if (run !== 0 && (kind === CLOSER || kind === JOINER)) {
        run = 2
        runIsDot = false
      } else if (kind === CJK_TERMINATOR && sentenceHasContent) {
        sentences++
        sentenceHasContent = false
      }
    }

    if (!lineHasContent && kind !== SPACE && kind !== JOINING) lineHasContent = true
  }
  if (lineHasContent && !inParagraph) paragraphs++
  // The last sentence, whether it ends with a terminator or not.
  if (sentenceHasContent) sentences++

  if (spaceless) ({ words, letters } = segmentWords(data))
  return {
    characters,
    bytes: ascii ? length : Buffer.byteLength(data, 'utf8'),
    words,
    sentences,
    lines: length === 0 ? 0 : lastWasBreak ? breaks : breaks + 1,
    paragraphs,
    average_word_length: averageLength(letters, words),
    reading_time_seconds: readingTime(words),
  }
}

// Kept out of the counting loop's function: their fractional results would make V8 drop its
// optimised code for the loop when it had guessed integers.
function averageLength(letters: number, words: number): number {
  return words === 0 ? 0 : Math.round((letters / words) * 100) / 100
}

function readingTime(words: number): number {
  return Math.ceil((words * 60) / READING_WORDS_PER_MINUTE)
}
