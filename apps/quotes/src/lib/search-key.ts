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

/**
 * The 4-grams of a phrase's key with an apostrophe that spell two letters or digits or more: one
 * of a mark and a letter (`tǂǁǂ`, `ǂǁǂs`, `ǁǂsǂ`: every "t'" and "'s") is in a large share of the
 * quotes, and decoding its posting list was most of the index's time (`it's never`: 11.1 ms with
 * its nine 4-grams, 6.9-7.4 with the six that spell two, for the same 176 candidates; `can't hit`
 * 8.8-9.5 -> 3.9-4.0). All of them when none does. The substring check decides as before.
 */
export function spelledQuads(key: string): string {
  return (
    `coalesce((SELECT array_agg(hashtext(m[1])) FROM generate_series(1, 4) AS k, ` +
    `regexp_matches(substr(${key}, k), '....', 'g') AS m WHERE m[1] ~ '[^ǂǁǀ].*[^ǂǁǀ]'), ` +
    `quote_search_quads(${key}))`
  )
}
