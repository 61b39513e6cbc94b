import { isIPv4, isIPv6 } from 'node:net'
import {
  REDACT_DEFAULT_MASK,
  REDACT_KINDS,
  type RedactKind,
  type RedactOptions,
  type RedactResult,
} from '@repo/contracts'
import { findPhones } from './phones.js'

/*
 * Each kind is found by a regular expression over the original text, then checked (Luhn for
 * card numbers, node:net for IP addresses); phone numbers by libphonenumber-js (phones.ts). Overlaps are settled by position, then by kind in
 * the order e-mails, IP addresses, cards, phones; the text is rebuilt once, each masked code
 * point replaced by the mask character. Every quantifier is bounded or unambiguous, so no input
 * makes the expressions backtrack for long.
 */

/** An e-mail address: a dot-atom local part (ASCII or letters) and a domain with a TLD. */
const EMAIL =
  /(?<![\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-])[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]{1,64}(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]{1,64}){0,8}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,8}\p{L}{2,63}(?![\p{L}\p{N}-]|\.[\p{L}\p{N}])/gu

/** Dotted quad; validated with isIPv4 (which refuses 256 and leading zeros). */
const IPV4 = /(?<![\p{L}\p{N}_.])\d{1,3}(?:\.\d{1,3}){3}(?![\p{L}\p{N}_]|\.\d)/gu

/**
 * Colon-separated hex groups with at least two colons, optionally ending in a dotted quad or
 * a zone; validated with isIPv6 (which refuses times such as 12:30:45 and MAC addresses).
 */
const IPV6 =
  /(?<![\p{L}\p{N}_:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{1,4})?(?:%[0-9A-Za-z]{1,15})?(?![\p{L}\p{N}_:])/gu

/**
 * Groups of digits split by single spaces or hyphens: card numbers are looked for inside them
 * (13 to 19 digits, Luhn-valid), as one group or as groups of 3 to 6 digits that start with a
 * group of four (4111 1111 1111 1111, 3782 822463 10005), so that a list of numbers written
 * side by side is not read as one.
 */
const DIGIT_GROUPS = /(?<![\p{L}\p{N}_])\d+(?:[ -]\d+)*(?![\p{L}\p{N}_])/gu
const DIGITS = /\d+/g
/** Most groups a card number is written in (4-4-4-4-3). */
const MAX_CARD_GROUPS = 5

const HEX_DIGIT = /[0-9A-Fa-f]/

function luhn(digits: string): boolean {
  let sum = 0
  let double = false
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48
    if (double) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
    double = !double
  }
  return sum % 10 === 0
}

type Span = [start: number, end: number]
type Detector = (data: string) => Span[]

/** Spans of `pattern` whose text passes `valid`. */
const byPattern =
  (pattern: RegExp, valid: (match: string) => boolean = () => true): Detector =>
  (data) => {
    const spans: Span[] = []
    for (const match of data.matchAll(pattern)) {
      if (valid(match[0])) spans.push([match.index, match.index + match[0].length])
    }
    return spans
  }

interface Group {
  start: number
  digits: string
}

/**
 * The last group of the longest card number that starts at group `first` (one group of 13
 * to 19 digits, or groups of 3 to 6 digits after a first group of 4), or -1.
 */
function cardAt(groups: Group[], first: number): number {
  const head = (groups[first] as Group).digits.length
  const candidates: number[] = head >= 13 && head <= 19 ? [first] : []
  if (head === 4) {
    let length = head
    const end = Math.min(groups.length, first + MAX_CARD_GROUPS)
    for (let last = first + 1; last < end; last++) {
      const size = (groups[last] as Group).digits.length
      if (size < 3 || size > 6) break
      length += size
      if (length > 19) break
      if (length >= 13) candidates.push(last)
    }
  }
  for (let k = candidates.length - 1; k >= 0; k--) {
    const last = candidates[k] as number
    const digits = groups.slice(first, last + 1).map((group) => group.digits)
    if (luhn(digits.join(''))) return last
  }
  return -1
}

/** Card numbers inside each run of digit groups: the longest valid one first. */
function findCards(data: string): Span[] {
  const spans: Span[] = []
  for (const run of data.matchAll(DIGIT_GROUPS)) {
    if (run[0].length < 13) continue
    const groups = Array.from(run[0].matchAll(DIGITS), (group) => ({
      start: run.index + group.index,
      digits: group[0],
    }))
    let first = 0
    while (first < groups.length) {
      const taken = cardAt(groups, first)
      if (taken < 0) {
        first++
        continue
      }
      const end = groups[taken] as Group
      spans.push([(groups[first] as Group).start, end.start + end.digits.length])
      first = taken + 1
    }
  }
  return spans
}

const DETECTORS: Record<RedactKind, Detector> = {
  emails: byPattern(EMAIL),
  ips: (data) => [
    ...byPattern(IPV4, isIPv4)(data),
    ...byPattern(IPV6, (match) => HEX_DIGIT.test(match) && isIPv6(match))(data),
  ],
  cards: findCards,
  phones: findPhones,
}

/** Which kind wins when two findings start at the same place. */
const PRIORITY: RedactKind[] = ['emails', 'ips', 'cards', 'phones']

interface Finding {
  start: number
  end: number
  kind: RedactKind
  rank: number
}

export function redact(data: string, options: RedactOptions): RedactResult {
  const kinds = new Set<RedactKind>(options.kinds ?? REDACT_KINDS)
  const mask = options.mask ?? REDACT_DEFAULT_MASK
  const findings: Finding[] = []
  PRIORITY.forEach((kind, rank) => {
    if (!kinds.has(kind)) return
    for (const [start, end] of DETECTORS[kind](data)) findings.push({ start, end, kind, rank })
  })
  findings.sort((a, b) => a.start - b.start || a.rank - b.rank || b.end - a.end)

  const counts: RedactResult['counts'] = { emails: 0, phones: 0, cards: 0, ips: 0 }
  const parts: string[] = []
  let cursor = 0
  for (const finding of findings) {
    if (finding.start < cursor) continue
    parts.push(data.slice(cursor, finding.start))
    const length = [...data.slice(finding.start, finding.end)].length
    parts.push(mask.repeat(length))
    counts[finding.kind]++
    cursor = finding.end
  }
  parts.push(data.slice(cursor))
  const total = counts.emails + counts.phones + counts.cards + counts.ips
  return { text: parts.join(''), counts, total }
}
