/** A LIKE pattern matching `term` literally anywhere (its % _ and \\ escaped). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, '\\$&')}%`
}

/** Terms this short match whole words only (as substrings they would match nearly every quote). */
export const WORD_TERM_MAX_LENGTH = 2

/**
 * How a term is matched against `quote_search.words` (see migration 1700000000010):
 * - `word`: 1-2 ASCII letters or digits, a whole word (not preceded or followed by a letter or
 *   digit);
 * - `plain`: ASCII letters and digits only, a substring, answered by the words table exactly;
 * - `phrase`: runs of ASCII letters, digits and apostrophes (') separated by single spaces
 *   (`are for`, `it's`, `dogs' toys`), a substring, answered by the words table exactly too (a
 *   single space is 'ǂ' there and every other run of separators 'ǂǀǂ', migration 1700000000080;
 *   ' is 'ǂǁǂ' and ’ 'ǂǁǁǂ', migration 1700000000090);
 * - `exact`: anything else (spaces, punctuation, other alphabets, whose letters Postgres's locale
 *   decides): the words table narrows the candidates, the quote's own lower-cased text
 *   (`quotes.search_text`) decides, so punctuation counts literally;
 * - `scan`: no letter or digit at all, so no index can help: the quote texts are read in id order.
 */
export type TermKind = 'word' | 'plain' | 'phrase' | 'exact' | 'scan'

/** A letter or digit of any script: what a term needs to be looked up, and what ends a whole word. */
export const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u

export function termKind(term: string): TermKind {
  if (!LETTER_OR_DIGIT.test(term)) return 'scan'
  if (/^[a-z0-9]+$/i.test(term)) return term.length <= WORD_TERM_MAX_LENGTH ? 'word' : 'plain'
  return /^[a-z0-9']+( [a-z0-9']+)*$/i.test(term) ? 'phrase' : 'exact'
}
