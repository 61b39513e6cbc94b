// Reading a fortune (strfile) file: its bytes decoded, mojibake repaired, split into entries.
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Decode as UTF-8; fall back to latin1 when the bytes are not valid UTF-8 (old fortune files
 *  predate UTF-8). Then repair mojibake, which must happen before control characters are
 *  stripped because the C1 bytes of a mis-decoded character are part of it. */
export function decodeText(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'latin1' } {
  try {
    return { text: fixMojibake(utf8.decode(bytes)), encoding: 'utf-8' }
  } catch {
    // The WHATWG 'latin1' label is windows-1252: same letters as ISO-8859-1, but 0x80-0x9F
    // become curly quotes and dashes instead of control characters that would be stripped.
    return { text: fixMojibake(new TextDecoder('latin1').decode(bytes)), encoding: 'latin1' }
  }
}

/** UTF-8 text that was once read as latin1 and re-encoded (`don’t` -> `donÃ¢Â\x80Â\x99t`, in
 *  the law file even twice): a run of U+0080-U+00FF characters whose code points form valid
 *  UTF-8 is decoded again, until nothing changes. Genuine latin1 letters practically never
 *  form valid UTF-8 sequences (`ü` = FC is not even a lead byte). */
export function fixMojibake(text: string): string {
  let current = text
  for (let round = 0; round < 3; round++) {
    const next = current.replace(/[\u00c2-\u00f4][\u0080-\u00ff]+/g, (run) => {
      try {
        return utf8.decode(Uint8Array.from(run, (c) => c.charCodeAt(0)))
      } catch {
        return run
      }
    })
    if (next === current) break
    current = next
  }
  return current
}

/** strfile format: entries are separated by lines that contain only `%`. */
export function splitEntries(text: string): string[] {
  const entries: string[] = []
  let current: string[] = []
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line === '%') {
      entries.push(current.join('\n'))
      current = []
    } else current.push(line)
  }
  entries.push(current.join('\n'))
  return entries.filter((e) => e.trim() !== '')
}
