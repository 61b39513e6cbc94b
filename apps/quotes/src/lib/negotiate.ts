import Negotiator from 'negotiator'

export type Format = 'html' | 'json' | 'text'

const OFFERED = ['text/html', 'application/json', 'text/plain'] as const
const FORMAT_OF: Record<(typeof OFFERED)[number], Format> = {
  'text/html': 'html',
  'application/json': 'json',
  'text/plain': 'text',
}

/** `*∕*` alone, with or without parameters: what curl, wget and HTTP libraries send. */
const ONLY_ANY = /^\s*\*\/\*\s*(;[^,]*)?$/

/**
 * Picks the representation for an Accept header:
 * - no header, or only `*∕*`: plain text, so `curl URL` prints a quote;
 * - otherwise proper q-value negotiation among HTML, JSON and plain text, HTML winning ties;
 * - nothing acceptable: HTML, the default format.
 */
export function negotiateUncached(accept: string | undefined): Format {
  if (accept === undefined || accept.trim() === '' || ONLY_ANY.test(accept)) return 'text'
  const best = new Negotiator({ headers: { accept } }).mediaType([...OFFERED]) as
    | (typeof OFFERED)[number]
    | undefined
  return best ? FORMAT_OF[best] : 'html'
}

// Accept headers repeat endlessly (a handful per client library), so remember the answers.
const MEMO_MAX = 1000
const memo = new Map<string, Format>()

export function negotiate(accept: string | undefined): Format {
  if (accept === undefined) return 'text'
  let format = memo.get(accept)
  if (format === undefined) {
    format = negotiateUncached(accept)
    if (accept.length <= 512) {
      if (memo.size >= MEMO_MAX) memo.clear()
      memo.set(accept, format)
    }
  }
  return format
}
