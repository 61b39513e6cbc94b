import fastQuerystring from 'fast-querystring'

/*
 * Text that clients send in query strings and HTML forms, checked before anything uses it: a
 * value must be one string (not a repeated field), decode from valid UTF-8 percent-encoding, and
 * hold no control characters (NUL cannot even be stored in Postgres). Each problem gets a message
 * a person can act on.
 */

const INVALID = Symbol('invalid percent-encoding')

// C0 controls and DEL; tab, line feed and carriage return only where a field allows them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const LINE_CONTROL = /[\u0000-\u001f\u007f]/

type Parsed = Record<string, string | string[]>

/** Each `name=value` piece decodes as UTF-8 percent-encoding (`+` is a space). */
function wellEncoded(text: string): boolean {
  for (const piece of text.split(/[&=]/)) {
    if (!piece.includes('%')) continue
    try {
      decodeURIComponent(piece.replaceAll('+', ' '))
    } catch {
      return false
    }
  }
  return true
}

/**
 * `application/x-www-form-urlencoded` and query strings, parsed by fast-querystring (Fastify's own
 * parser), which keeps a malformed escape such as `%zz` or `%ED%A0%80` as raw text instead of
 * refusing it: such input is marked, so textProblem() can say what is wrong.
 */
export function parseUrlEncoded(text: string): Parsed {
  const parsed = fastQuerystring.parse(text) as Parsed
  if (text.includes('%') && !wellEncoded(text)) {
    Object.defineProperty(parsed, INVALID, { value: true, enumerable: false })
  }
  return parsed
}

export interface FieldRule {
  /** Longest accepted value, in characters. */
  maxLength: number
  /** How the field is named in messages (default: its name). */
  label?: string
  /** Allows tab and line breaks (text areas). */
  multiline?: boolean
}

/**
 * Why a query string or form is refused, or undefined when the fields named in `rules` are each
 * one well-formed string (absent fields are fine: the caller decides what is required).
 */
export function textProblem(input: unknown, rules: Record<string, FieldRule>): string | undefined {
  if (input === null || typeof input !== 'object') return undefined
  if ((input as Record<symbol, unknown>)[INVALID]) {
    return 'The request is not valid UTF-8 percent-encoding (a % must be followed by two hex digits of UTF-8).'
  }
  for (const [name, rule] of Object.entries(rules)) {
    const value = (input as Record<string, unknown>)[name]
    if (value === undefined) continue
    const label = rule.label ?? name
    if (typeof value !== 'string') return `Send ${label} once, as text.`
    if (value.length > rule.maxLength) {
      return `${label} is too long: at most ${rule.maxLength.toLocaleString('en')} characters.`
    }
    if ((rule.multiline ? CONTROL : LINE_CONTROL).test(value)) {
      return `${label} must not contain control characters.`
    }
    if (!value.isWellFormed()) return `${label} must be valid Unicode text.`
  }
  return undefined
}
