// Pure parsing helpers for BSD fortune (strfile) text files. No I/O here so that every rule can
// be unit-tested on its own; build-corpus.ts does the downloading, ordering and id bookkeeping.

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

// Chat/dialogue markers. IRC lines (`<nick> text`, `< nick> text`, `* nick waves`) and
// `Speaker: text` turns read as transcripts, not quotations, and their "authors" are nicks.
const IRC_LINE = /^\s*(?:<\s?[@+%]?[^\s<>]{1,30}>|\[\d{1,2}:\d\d(?::\d\d)?\]\s*<)/
const IRC_ACTION = /^\s*\*{1,3} [\w\-|^`[\]{}]+ [a-z]/
const SPEAKER =
  /^\s*(?:\p{Lu}[\p{L}.'-]*(?: \p{Lu}[\p{L}.'-]*){0,2}|[a-z][\w-]{1,15}|\p{Lu}{1,2}):\s+\S/u
const RIDDLE = /^\s*(?:Q|A)\s*[:.]\s/m

/** True for IRC logs, quoted e-mail exchanges, multi-turn dialogues and Q:/A: riddles. */
export function isDialogue(body: string, attribution = ''): boolean {
  const lines = body.split('\n')
  if (lines.some((l) => IRC_LINE.test(l))) return true
  if (/(?:^|\s)#[\w\-.]+|\bIRC\b/i.test(attribution) && lines.some((l) => IRC_ACTION.test(l)))
    return true
  if (lines.filter((l) => IRC_ACTION.test(l)).length >= 2) return true
  // E-mail/Usenet replies: `> question` (or `: question`) then the author's answer, two voices.
  if (lines.some((l) => /^\s*(?:>|: )/.test(l))) return true
  // Alternating quoted lines: "It's a summons." / "What's a summons?"
  if (lines.filter((l) => /^\s*"[^"]+"\s*$/.test(l)).length >= 2) return true
  if (RIDDLE.test(body) && /^\s*Q\s*[:.]/m.test(body)) return true
  // Two or more labelled turns make a dialogue; a single `Delta: ...` label is just a quip.
  return lines.filter((l) => SPEAKER.test(l)).length >= 2
}

/** Share of letters among visible characters; ASCII art and code fall well below prose. */
export function letterRatio(text: string): number {
  const visible = text.replace(/\s/g, '')
  if (visible.length === 0) return 0
  return (visible.match(/\p{L}/gu)?.length ?? 0) / visible.length
}

// Source code lines (the perl file quotes Larry Wall's C comments with the code around them).
const CODE_LINE =
  /\/\*|\*\/|^\s*#\s*(?:include|define|else|endif|ifn?def|if)\b|^\s*(?:if|for|while)\s*\(|[\w\])]\s*[-+|&]?=\s*[^=\s].*;\s*$|^\s*\w+\([^()]*\);/

/** ASCII art or code: few letters overall, a quarter of the lines mostly symbols (a picture
 *  drawn beside a lyric still has plenty of letters in total), or half the lines source code. */
export function looksLikeArt(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '')
  const drawn = lines.filter((l) => l.replace(/\s/g, '').length >= 2 && letterRatio(l) < 0.4)
  const code = lines.filter((l) => CODE_LINE.test(l))
  return (
    letterRatio(text) < 0.6 ||
    (drawn.length >= 2 && drawn.length / lines.length >= 0.25) ||
    code.length / lines.length >= 0.5
  )
}

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

const collapse = (s: string): string => s.replace(/[ \t\u00a0]+/g, ' ').trim()

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

// Words that mark an attribution as a publication, organisation, rule or anonymous source
// rather than a person ("Murphy's Law", "Aviation Week and Space Technology", "Anonymous").
// Checked on every name word except lower-case particles, so "Alexander the Great" survives
// but "The Grateful Dead" (a leading article) does not.
const NOT_A_NAME = new Set(
  `law laws rule rules principle corollary axiom theorem postulate maxim proverb proverbs saying
  motto slogan sign graffiti graffito bumper sticker poster button t-shirt ad advertisement
  commercial headline memo manual guide handbook dictionary encyclopedia encyclopaedia bible
  gospel book chapter psalm psalms times post journal magazine review news newsletter digest
  gazette tribune herald observer press daily weekly week report technology company corporation
  corp inc ltd university college institute school society association department ministry
  council committee agency bureau office army navy government congress senate court act code
  standard faq rfc usenet newsgroup mailing channel irc fortune cookie calendar almanac epitaph
  inscription quote quotation version edition series show episode movie film song lyrics album
  poem ode program programme software system systems unix linux windows microsoft ibm anonymous
  anon unknown various author source someone somebody nobody everyone everybody overheard seen
  heard found attributed traditional folklore adage dictum message error manpage documentation
  readme changelog article letter essay speech lecture interview column editorial editor story
  discussion epigrams card greeting label instructions warning notice disclaimer newspaper
  proceedings conference comics tunes theater theatre datamation esquire newsweek slashdot kodak
  sniglets folk recipe notes topic dating opportunity confusion advice narrator
  newspaperman capitalists mom mt casablanca traffic smile question commedia
  a an the one some my our your his her their this that these those every each all any another
  from quoted written said told posted unattributed ancient old chinese`.split(/\s+/),
)
// Lower-case particles allowed between name words (Ludwig van Beethoven, Marvin the Android).
const PARTICLES = new Set(
  'de da di del della der den des du van von la le y bin ibn al el ten ter the'.split(' '),
)
// "of" joins a name only after a single word or a title: "Bernard of Clairvaux", "Queen Juliana
// of the Netherlands"; after a full name it is an affiliation ("Craig Burton of Novell").
const OF_TITLE =
  /^(?:King|Queen|Prince|Princess|Duke|Duchess|Saint|St\.|Pope|Lord|Lady|Earl|Emperor|Empress)$/
const SUFFIX = /^(?:Jr\.?|Sr\.?|Esq\.?|[IVX]{1,5})$/ // Jr., Louis XIV, Audrey II
// Lower-case words that may follow a name and introduce context to be dropped
// ("Larry Wall in <msgid>", "Santiago Vila on debian-devel", "Mike N. trying to fix ...").
const CONTEXT_WORD =
  /^(?:in|on|at|from|about|quoting|upon|as|via|re|regarding|who|of|for|to|with|when|while|after|before|during|says|said|writes|wrote|told|\p{Ll}+(?:ing|ed))\b/u

function isNameWord(tok: string, first: boolean): boolean {
  if (!first && SUFFIX.test(tok)) return true
  if (/^(?:\p{Lu}\.)+$/u.test(tok)) return true // initials: J. / J.R.R.
  if (!/^\p{Lu}[\p{L}'’.-]*$/u.test(tok)) return false
  if (/['’]s$/.test(tok)) return false // possessive: "Murphy's", a title
  const letters = tok.replace(/[^\p{L}]/gu, '')
  if (letters.length >= 2 && letters === letters.toUpperCase()) return false // "PERL", "MG"
  // Inner capitals only after a known prefix (McCoy, DeMarco); "BugTraq" is no name.
  if (/\p{Ll}\p{Lu}/u.test(tok) && !/^(?:Mc|Mac|De|Di|Da|La|Le|Van|Von|Du|Fitz)\p{Lu}/u.test(tok))
    return false
  return true
}

export type AuthorResult = { author: string } | { reject: string }

/** Reads the leading name of an attribution ("Larry Wall in <msgid>" -> "Larry Wall"). */
function readName(raw: string): AuthorResult & { rest?: string } {
  const tokens = raw.split(' ')
  const name: string[] = []
  let rest = ''
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] ?? ''
    const word = tok.replace(/[,;:]$/, '')
    const next = (tokens[i + 1] ?? '').replace(/[,;:]$/, '')
    const joinsNext = isNameWord(next, false) || PARTICLES.has(next)
    let ok: boolean
    if (name.length > 0 && word === tok && PARTICLES.has(word)) ok = joinsNext
    else if (name.length > 0 && word === tok && word === 'of')
      ok = joinsNext && (name.length === 1 || OF_TITLE.test(name[0] ?? ''))
    else if (name.length > 0 && (word === 'and' || word === '&')) ok = isNameWord(next, true)
    else ok = isNameWord(word, name.length === 0)
    if (!ok) {
      rest = tokens.slice(i).join(' ')
      break
    }
    name.push(word)
    if (word !== tok) {
      rest = `${tok.slice(word.length)} ${tokens.slice(i + 1).join(' ')}`.trim()
      break
    }
  }
  if (name.length === 0) return { reject: 'not a name', rest }
  // A lone word is trusted only when punctuation follows ("Spock, ..."): "Topic on #Linux",
  // "Taken from a .signature" and "Apologies to Billy Joel" are not people. After a longer name
  // a context word may follow; anything else means the "name" was the start of a phrase.
  if (rest !== '' && !/^[,;:([<"“_]/.test(rest) && (name.length === 1 || !CONTEXT_WORD.test(rest)))
    return { reject: 'not a name', rest }
  const checked = name.filter((w, i) => i === 0 || !PARTICLES.has(w))
  if (
    checked.some(
      (w) => !/^\p{Lu}\.$/u.test(w) && NOT_A_NAME.has(w.toLowerCase().replace(/\.$/, '')),
    )
  )
    return { reject: 'title, organisation or anonymous', rest }
  // Initials alone ("D. J. on KSFO") identify nobody.
  if (name.every((w) => /^(?:\p{Lu}\.)+$/u.test(w))) return { reject: 'not a name', rest }
  // "Mark Twain." -> "Mark Twain", but keep the period of initials, titles and suffixes.
  const last = name[name.length - 1] ?? ''
  let author = name.join(' ')
  if (author.endsWith('.') && !/^(?:\p{Lu}\.)+$|^(?:Jr|Sr|Esq|Dr|Mr|Mrs|Ms|St)\.$/u.test(last)) {
    author = author.slice(0, -1)
  }
  if (author.length > 80 || name.length > 7) return { reject: 'too long', rest }
  return { author, rest }
}

/** Extracts a clean personal name from an attribution, or says why it is not one. */
export function parseAuthor(attribution: string): AuthorResult {
  const raw = collapse(
    collapse(attribution)
      .replace(/<[^<>\s]+@[^<>\s]+>|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, ' ') // e-mails, message ids
      .replace(/<?\b(?:https?|ftp):\/\/[^\s>)]+>?/g, ' ') // URLs (the name may stand beside one)
      .replace(/,\s*(Jr\.?|Sr\.?)(?=[\s,]|$)/g, ' $1')
      // Nicknames between first and last name: Dave "First Strike" Pare -> Dave Pare
      .replace(/(\p{Lu}[\p{L}.]*) ["'“‘][^"'”’]{1,20}["'”’] (?=\p{Lu}\p{Ll})/gu, '$1 '),
  )
  if (
    /^(?:www\.|\S+\.(?:com|org|net|edu)\b)/i.test(raw) ||
    (raw === '' && /:\/\//.test(attribution))
  )
    return { reject: 'url' }
  if (raw === '' || !/\p{L}/u.test(raw)) return { reject: 'empty or punctuation' }
  const head = readName(raw)
  // `Startide Rising, by David Brin`, `From the SAG, by Lars Wirzenius`: the author follows
  // "by" when the head is no name or is directly followed by "by" (a title). A speaker keeps
  // the quote (`Jorge Luis Borges, from "Writers on Writing" by Jon Winokur`), and so does the
  // head before a lower-case or go-between verb ("as amended by", "Submitted by").
  const by =
    /^(?:|.*?(?:[,"”)_]|(?!(?:Submitted|Sent|Contributed|Translated|Adapted|Compiled|Edited|Quoted|Posted|Cited|Reported|Forwarded|Found|Seen|Heard)\b)\p{Lu}[\p{L}'’.]*))\s*\bby\s+(\p{Lu}.*)$/u.exec(
      raw,
    )
  const headFirst = 'author' in head && !/^,?\s*by\s/.test(head.rest ?? '')
  if (by?.[1] && !headFirst) {
    const after = readName(by[1])
    if ('author' in after) return { author: after.author }
  }
  return 'author' in head ? { author: head.author } : { reject: head.reject }
}

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
