/** A LIKE pattern matching `term` literally anywhere (its % _ and \\ escaped). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, '\\$&')}%`
}
