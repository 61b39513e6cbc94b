/**
 * A LIKE pattern matching `term` literally anywhere (its % _ and \\ escaped): the tests' own
 * statement of what a search finds (`search_text LIKE lower(pattern)`), written independently of
 * the service's queries (which test with strpos).
 */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, '\\$&')}%`
}
