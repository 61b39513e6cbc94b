import { isIPv4, isIPv6 } from 'node:net'
import {
  REDACT_DEFAULT_MASK,
  REDACT_KINDS,
  type RedactKind,
  type RedactOptions,
  type RedactResult,
} from '@repo/contracts'

/*
 * Each kind is found by a regular expression over the original text, then checked (Luhn for
 * card numbers, node:net for IP addresses). Overlaps are settled by position, then by kind in
 * the order e-mails, IP addresses, cards, phones; the text is rebuilt once, each masked code
 * point replaced by the mask character. Every quantifier is bounded, so no input makes the
 * expressions backtrack for long.
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

/** 13 to 19 digits, optionally in groups split by single spaces or hyphens; Luhn-checked. */
const CARD = /(?<![\p{N}]|[\p{N}][ -])\d(?:[ -]?\d){12,18}(?![ -]?\p{N})/gu

/**
 * Phone numbers: international (`+`, then 7 to 15 digits with spaces, dots, hyphens or
 * brackets between them: +44 20 7946 0958, +33 (0)1 23 45 67 89) or North American
 * ((555) 123-4567, 555-123-4567, 555.123.4567, +1 555 123 4567, 1-800-555-0199). A bare run
 * of ten digits is not taken for a phone number: it is as likely an order or account number.
 */
const PHONE =
  /(?<![\p{L}\p{N}+_])(?:\+\d(?:[ .\-()]{0,2}\d){6,14}|(?:\+?1[ .-]?)?(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4})(?![\p{L}\p{N}_]|[ .-]\d)/gu

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

const DETECTORS: Record<RedactKind, { pattern: RegExp; valid: (match: string) => boolean }> = {
  emails: { pattern: EMAIL, valid: () => true },
  ips: { pattern: IPV4, valid: (match) => isIPv4(match) },
  cards: { pattern: CARD, valid: (match) => luhn(match.replace(/[ -]/g, '')) },
  phones: { pattern: PHONE, valid: () => true },
}

/** Order in which overlapping findings are preferred when they start at the same place. */
const PRIORITY: RedactKind[] = ['emails', 'ips', 'cards', 'phones']

interface Finding {
  start: number
  end: number
  kind: RedactKind
  rank: number
}

function find(data: string, kind: RedactKind, rank: number, into: Finding[]): void {
  const scan = (pattern: RegExp, valid: (match: string) => boolean) => {
    for (const match of data.matchAll(pattern)) {
      if (!valid(match[0])) continue
      into.push({ start: match.index, end: match.index + match[0].length, kind, rank })
    }
  }
  const { pattern, valid } = DETECTORS[kind]
  scan(pattern, valid)
  if (kind === 'ips') {
    scan(IPV6, (match) => HEX_DIGIT.test(match) && isIPv6(match))
  }
}

export function redact(data: string, options: RedactOptions): RedactResult {
  const kinds = new Set<RedactKind>(options.kinds ?? REDACT_KINDS)
  const mask = options.mask ?? REDACT_DEFAULT_MASK
  const findings: Finding[] = []
  PRIORITY.forEach((kind, rank) => {
    if (kinds.has(kind)) find(data, kind, rank, findings)
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
