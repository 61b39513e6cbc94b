// The keys quotes are compared by: duplicates, and identity for stable ids.
/** Duplicate key: letters and digits only, so copies that differ in case, whitespace,
 *  punctuation or quote style (`...knowledge.` vs `...knowledge...`) count as one quote. */
export function dedupKey(text: string): string {
  return normKey(text).replace(/[^\p{L}\p{N}]/gu, '')
}

/** Identity key (for stable ids): case-, whitespace- and quote-style-insensitive. */
export function normKey(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[‘’‛`´]/g, "'")
    .replace(/[“”„]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}
