/** A piece of text, marked when it is an occurrence of the searched term. */
export interface Segment {
  text: string
  mark: boolean
}

const SPECIAL = /[.*+?^${}()|[\]\\]/g

/**
 * Splits `text` around the case-insensitive occurrences of `term` (as search matches them). The
 * template prints each piece escaped, inside <mark> when marked, so the term and the text can
 * hold any character (`<`, `&`, quotes) safely.
 */
export function highlight(text: string, term: string): Segment[] {
  if (term === '') return [{ text, mark: false }]
  const pattern = new RegExp(term.replace(SPECIAL, '\\$&'), 'giu')
  const segments: Segment[] = []
  let at = 0
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) segments.push({ text: text.slice(at, match.index), mark: false })
    segments.push({ text: match[0], mark: true })
    at = match.index + match[0].length
  }
  if (at < text.length) segments.push({ text: text.slice(at), mark: false })
  return segments
}

/** The quote and author of each result, split for highlighting. */
export function highlightResults(results: { quote: string; author: string }[], term: string) {
  return results.map((q) => ({
    quote: highlight(q.quote, term),
    author: highlight(q.author, term),
  }))
}
