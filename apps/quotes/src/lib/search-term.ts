// C0 controls and DEL: they cannot be typed in a search box, and NUL cannot be stored in Postgres.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/

/** Why a term is refused, or undefined when it is fine. Length is checked by the route schema. */
export function termProblem(term: string): string | undefined {
  if (CONTROL.test(term)) return 'term must not contain control characters.'
  return undefined
}

/** A LIKE pattern matching `term` literally anywhere (its % _ and \ escaped). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, '\\$&')}%`
}
