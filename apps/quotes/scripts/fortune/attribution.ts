// An entry split into its body and its trailing `-- attribution`.
const ATTRIB_LINE = /^\s*--\s*(\S.*)$/
// An attribution appended to the last text line needs a visible gap (2+ spaces or a tab) so
// that an ordinary dash (`Snow Day -- stay home.`) is not mistaken for one.
const INLINE_ATTRIB = /^(.*\S)(?: {2,}|\t)\s*--\s*(\S.*)$/
// An indented `-- Name` line earlier in the entry, i.e. a second attribution.
const INNER_ATTRIB = /^(?:\t| {2,})\s*--\s*\S|\S(?: {2,}|\t)\s*--\s*\p{Lu}/u

export type Split = { body: string; attribution: string; multiple: boolean }

/** Splits an entry into body and trailing attribution; null when the entry is unattributed.
 *  The attribution is the last `-- ...` line plus up to three indented continuation lines
 *  (long titles wrap: `-- Name, "A Long\n\t\t   Title"`). `multiple` flags compilations of
 *  several attributed quotes, where the final author would be wrong for the earlier ones. */
export function splitAttribution(entry: string): Split | null {
  const lines = entry.replace(/\s+$/, '').split('\n')
  for (let j = lines.length - 1; j >= 0 && j >= lines.length - 4; j--) {
    const line = lines[j] ?? ''
    const tail = lines.slice(j + 1)
    if (!tail.every((l) => /^(?:\t| {2,})\s*\S/.test(l) && !ATTRIB_LINE.test(l))) break
    let bodyLines: string[] | null = null
    let first = ''
    const own = ATTRIB_LINE.exec(line)
    const inline = own ? null : INLINE_ATTRIB.exec(line)
    if (own) {
      bodyLines = lines.slice(0, j)
      first = own[1] ?? ''
    } else if (inline) {
      bodyLines = [...lines.slice(0, j), inline[1] ?? '']
      first = inline[2] ?? ''
    }
    if (bodyLines === null) continue
    const attribution = [first, ...tail].map((l) => l.trim()).join(' ')
    const body = bodyLines.join('\n')
    return { body, attribution, multiple: bodyLines.some((l) => INNER_ATTRIB.test(l)) }
  }
  return null
}
