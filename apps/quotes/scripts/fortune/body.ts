// A quote's body normalised: verse or prose, ASCII quoting, outer quote marks.
const expandTabs = (line: string): string =>
  line.replace(/[^\t]*\t/g, (seg) =>
    seg.slice(0, -1).padEnd((Math.floor((seg.length - 1) / 8) + 1) * 8),
  )

/** Verse keeps its line breaks; hard-wrapped prose does not. A wrapped line ends only because
 *  the next word would not fit, so a break is "deliberate" when the next line's first word
 *  would still have fitted, with a little slack, within the entry's wrap width (its longest
 *  line that is not the last of a paragraph), or when a line ends in punctuation and the next
 *  starts with a capital. A block of three or more lines whose breaks are mostly deliberate
 *  reads as verse, a list or a gag whose layout matters; anything else, including every
 *  two-line block, is joined (when in doubt, join). Blocks are paragraphs separated by blank
 *  lines; if the entry as a whole reads as verse, all of them keep their breaks. A
 *  `Word, n.:` definition header is not counted as a deliberate break. */
export function verseBlocks(lines: string[]): { block: string[]; verse: boolean }[] {
  const expanded = lines.map((l) => expandTabs(l).trimEnd())
  const blocks: string[][] = [[]]
  for (const l of expanded) {
    if (l.trim() === '') blocks.push([])
    else blocks[blocks.length - 1]?.push(l)
  }
  const nonEmpty = blocks.filter((b) => b.length > 0)
  const width = Math.max(
    0,
    ...nonEmpty.flatMap((b) => (b.length > 1 ? b.slice(0, -1) : b)).map((l) => l.length),
  )
  const count = (b: string[]): [number, number] => {
    let breaks = 0
    let deliberate = 0
    for (let i = 0; i + 1 < b.length; i++) {
      const line = b[i] ?? ''
      if (/:$/.test(line)) continue
      breaks++
      const next = (b[i + 1] ?? '').trim()
      const fits = line.length + 1 + (next.split(' ')[0] ?? '').length <= width - 3
      // Verse lines of even length rarely leave room, but they end in punctuation and the
      // next one starts with a capital, which wrapped prose does only now and then.
      if (fits || (/[,.;:!?'"]$/.test(line) && /^["'(]?\p{Lu}/u.test(next))) deliberate++
    }
    return [breaks, deliberate]
  }
  const verse = ([breaks, deliberate]: [number, number]): boolean =>
    breaks >= 2 && deliberate / breaks >= 0.6
  const counts = nonEmpty.map(count)
  const total = counts.reduce<[number, number]>((a, c) => [a[0] + c[0], a[1] + c[1]], [0, 0])
  const wholeEntryIsVerse = verse(total)
  return nonEmpty.map((block, i) => ({
    block,
    verse: wholeEntryIsVerse || verse(counts[i] ?? [0, 0]),
  }))
}

export const collapse = (s: string): string => s.replace(/[ \t\u00a0]+/g, ' ').trim()

/** Normalises a quote body: verse keeps one line per verse line (blank lines dropped); prose
 *  is joined with single spaces, keeping a newline only between blank-line-separated
 *  paragraphs. `some-\nthing` hyphenation is rejoined without a space. */
export function normaliseBody(body: string): string {
  const paragraphs = verseBlocks(body.split('\n')).map(({ block, verse }) => {
    if (verse) return block.map(collapse).join('\n')
    let text = ''
    for (const line of block.map(collapse)) {
      if (text === '') text = line
      else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(line)) text += line
      else text += ` ${line}`
    }
    return text
  })
  return stripOuterQuotes(asciiQuotes(paragraphs.join('\n')))
}

/** Old ASCII typewriter quoting: ``like this'' -> "like this", `like this' -> 'like this'. */
export function asciiQuotes(text: string): string {
  return text
    .replace(/``([^`\n]*?)''/g, '"$1"')
    .replace(/`([^`\n]*?)'(?=[\s.,;:!?)"\]-]|$)/g, "'$1'")
}

/** `"Quote."` -> `Quote.` when the quote marks wrap the whole text and nothing else (a final
 *  `.` outside the marks, as in `"Quote".`, moves inside). */
export function stripOuterQuotes(text: string): string {
  const m = /^(?:"([^"]*)"|“([^“”]*)”)([.!?]?)$/.exec(text)
  const inner = (m?.[1] ?? m?.[2])?.trim()
  if (m === null || !inner) return text
  return /[.!?…]$/.test(inner) ? inner : inner + (m[3] ?? '')
}
