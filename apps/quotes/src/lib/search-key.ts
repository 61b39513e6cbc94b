/**
 * The term as quote_search_key() normalizes it (migrations 1700000000010, 060, 080, 090): letters
 * and digits kept, each apostrophe written 'ǂǁǂ' (') or 'ǂǁǁǂ' (’, migration 090), a single space
 * 'ǂ', every other run of characters 'ǂǀǂ' (the marks 'ǂ', 'ǁ' and 'ǀ' themselves count as such
 * characters).
 */
export function searchKey(term: string): string {
  return term
    .toLowerCase()
    .replace(/[ǂǁǀ]/g, '#')
    .replace(/[^\p{L}\p{N}'’]+/gu, (run) => (run === ' ' ? 'ǂ' : 'ǂǀǂ'))
    .replace(/'/g, 'ǂǁǂ')
    .replace(/’/g, 'ǂǁǁǂ')
}

/**
 * The length of the term's key in characters as the index choice counts it, never more than
 * Postgres writes it: a key JS measured at 4 that Postgres writes in 3 would look up no 4-gram at
 * all, and read every row (found by review). So each run of separators counts as one character
 * (the key writes 'ǂ' or 'ǂǀǂ'), in code points, as Postgres counts them, and each code point
 * beyond ASCII two characters less: JS and Postgres's locale lower-case and class some of them
 * differently (`abİ` is `abi` and a mark in JS, `abi` in Postgres, whose 4-gram set is empty and
 * matched every row).
 */
export function searchKeyLength(term: string): number {
  const beyondAscii = [...term].filter((c) => c > '\x7f').length
  return [...searchKey(term).replace(/ǂǀǂ/g, 'ǂ')].length - 2 * beyondAscii
}
