import {
  LANGUAGE_DEFAULT_ALTERNATIVES,
  type LanguageOptions,
  type LanguageResult,
} from '@repo/contracts'
import { francAll } from 'franc'
import { meter } from './work.js'

/*
 * franc (trigram profiles of 187 languages, ISO 639-3 codes) decides; this file prepares its
 * sample and turns franc's relative scores into a confidence.
 *
 * franc reads the first 2,048 characters. URLs and e-mail addresses are removed first (they
 * are English-looking noise in any language). franc's scores are 1 for the best language and
 * a relative distance for the others, so the confidence is a softmax over them (how far the
 * best one leads), scaled down for texts too short to judge: below about 40 letters a trigram
 * profile is a guess. Scots is not considered (see IGNORED).
 */

const SAMPLE_CHARACTERS = 2048
/** URLs and e-mail addresses (bounded, so that no input makes this slow). */
const NOISE = /\b(?:https?:\/\/|www\.)\S+|[^\s@]{1,64}@[^\s@]{1,255}/gi
const LETTER = /\p{L}/gu
/**
 * Sharpness of the softmax over franc's scores (which differ by a few hundredths). Chosen on
 * English quotations cut into 20 to 300 characters: about 99% of answers above 0.9 are right,
 * about 80% around 0.75, half around 0.5.
 */
const TEMPERATURE = 50
/**
 * Left out: franc's Scots profile beats English on 10 to 15% of short English texts, and text
 * really written in Scots is rare.
 */
const IGNORED = ['sco']
/** Letters needed before the length stops lowering the confidence. */
const CONFIDENT_LETTERS = 40

// Stryker disable next-line ArrayDeclaration: [] is the runtime's default locale, English wherever the tests run
const displayNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' })
const names = new Map<string, string>()

/** English name of an ISO 639-3 code (ICU knows most; the code itself otherwise). */
export function languageName(code: string): string {
  let name = names.get(code)
  // Stryker disable next-line ConditionalExpression: the cache only saves a look-up
  if (name === undefined) {
    try {
      name = code === 'und' ? 'Undetermined' : (displayNames.of(code) ?? code)
    } catch {
      name = code
    }
    // Stryker disable next-line CallExpression: the cache only saves a look-up
    names.set(code, name)
  }
  return name
}

const round = (value: number) => Math.round(value * 10_000) / 10_000

export interface Detection {
  language: string
  confidence: number
  ranked: Array<{ language: string; confidence: number }>
}

/** Below this confidence the language is a guess: stop words fall back to English. */
const MIN_STOPWORD_CONFIDENCE = 0.5

/** The language whose stop words to remove from `text`: the detected one, or English. */
export function stopWordLanguage(text: string): string {
  const detection = detectLanguage(text)
  return detection.confidence >= MIN_STOPWORD_CONFIDENCE ? detection.language : 'eng'
}

/** What franc reads of `text`: its first characters, URLs and e-mail addresses left out. */
export function sampleOf(text: string): string {
  return text
    .slice(0, SAMPLE_CHARACTERS * 2)
    .replace(NOISE, ' ')
    .slice(0, SAMPLE_CHARACTERS)
}

/** The most likely language of `text`, its confidence and the other candidates, best first. */
export function detectLanguage(text: string): Detection {
  const sample = sampleOf(text)
  meter.add('franc', sample.length)
  const scores = francAll(sample, { ignore: IGNORED })
  const best = scores[0]
  // Stryker disable next-line ConditionalExpression: francAll always gives a candidate (und at least)
  if (best === undefined || best[0] === 'und') return { language: 'und', confidence: 0, ranked: [] }

  let total = 0
  for (const [, score] of scores) total += Math.exp((score - 1) * TEMPERATURE)
  // Stryker disable next-line OptionalChaining: franc answers und (above) for a sample without letters
  const letters = sample.match(LETTER)?.length ?? 0
  const lengthFactor = Math.min(1, letters / CONFIDENT_LETTERS)
  const ranked = scores.map(([language, score]) => ({
    language,
    confidence: round((Math.exp((score - 1) * TEMPERATURE) / total) * lengthFactor),
  }))
  return {
    language: best[0],
    confidence: (ranked[0] as (typeof ranked)[number]).confidence,
    ranked,
  }
}

export function language(data: string, options: LanguageOptions): LanguageResult {
  const count = options.alternatives ?? LANGUAGE_DEFAULT_ALTERNATIVES
  const detection = detectLanguage(data)
  return {
    language: detection.language,
    name: languageName(detection.language),
    confidence: detection.confidence,
    alternatives: detection.ranked.slice(1, 1 + count).map((candidate) => ({
      language: candidate.language,
      name: languageName(candidate.language),
      confidence: candidate.confidence,
    })),
  }
}
