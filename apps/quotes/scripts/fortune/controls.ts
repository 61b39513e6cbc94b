// Terminal junk removed from an entry: ANSI escapes, nroff overstrike, control characters.
// Dead keys of old terminals: `'` + BS + `e` was the way to type é. Map to combining marks.
const OVERSTRIKE_ACCENTS: Record<string, string> = {
  "'": '\u0301',
  '`': '\u0300',
  '"': '\u0308',
  '^': '\u0302',
  '~': '\u0303',
}

/** nroff-style overstrike (`_\bX` underline, `X\bX` bold, `'\be` accent, `___\b\b\bdoes`)
 *  rendered as a terminal would: backspace moves the cursor left and the later glyph wins,
 *  except that an underscore never hides a letter and a dead-key accent combines. */
export function stripOverstrike(line: string): string {
  if (!line.includes('\b')) return line
  const cells: string[] = []
  let pos = 0
  for (const ch of line) {
    if (ch === '\b') {
      pos = Math.max(0, pos - 1)
      continue
    }
    const old = cells[pos]
    if (old === undefined || old === ' ' || old === '_') cells[pos] = ch
    else if (ch === '_' || ch === old) cells[pos] = old
    else if (OVERSTRIKE_ACCENTS[old] && /\p{L}/u.test(ch)) cells[pos] = ch + OVERSTRIKE_ACCENTS[old]
    else cells[pos] = ch
    pos++
  }
  return cells.join('').normalize('NFC')
}

/** Removes terminal junk: ANSI escapes, overstrike, and every control character except `\n`
 *  and `\t` (tabs are still needed to recognise indented attribution lines; they become spaces
 *  during normalisation). Includes the C1 range U+0080-U+009F, never printable text. */
export function cleanControls(entry: string): string {
  return (
    entry
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing ANSI escapes is the point
      .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
      .split('\n')
      .map(stripOverstrike)
      .join('\n')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '')
  )
}
