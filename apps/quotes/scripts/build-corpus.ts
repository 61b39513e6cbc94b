import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { FORTUNE_DIR, fetchDebs, fortuneFiles } from './corpus/debs.js'
import { licenses } from './corpus/licenses.js'
import * as parse from './fortune-parse.js'

type Source = 'quotable' | 'fortunes'
// `tags`: quotable's tag names as published; fortunes have none.
type Quote = { id: string; quote: string; author: string; source: Source; tags: string[] }
type Candidate = Omit<Quote, 'id'>

const APP_DIR = resolve(import.meta.dirname, '..')
const OUT_JSON = join(APP_DIR, 'data', 'quotes.json')
const OUT_LICENSES = join(APP_DIR, 'data', 'LICENSES.md')
const QUOTABLE_DIR = process.env.QUOTABLE_DIR ?? join(APP_DIR, 'data', 'sources', 'quotable')

// Quotes longer than this read as stories or essays, not quotations, and do not fit a card.
// Raised to LOOSE_MAX_CHARS only if the corpus would otherwise have fewer than MIN_TOTAL quotes.
const MAX_CHARS = 400
const LOOSE_MAX_CHARS = 600
const MIN_TOTAL = 7000

// Whole files left out after reading the list of files (counts from fortunes 1:1.99.1-7.3):
// the per-entry dialogue filter would catch most of their entries anyway, but these files are
// transcripts by nature and what slips through is nick-attributed chatter or puzzle halves.
// `linux` is kept: only ~12% of it is IRC, the rest are one-liners from named kernel and
// mailing-list people, and its chat entries are dropped one by one.
const EXCLUDED_FILES: Record<string, string> = {
  debian: 'IRC log file: ~70% of entries are #debian / #debian-devel chat',
  knghtbrd: 'IRC log file: ~70% of entries are #debian / LinuxNet chat',
  riddles: 'Q:/A: riddles (every entry is a question and an answer)',
  'ascii-art': 'pictures, not quotations',
}

// --- selection ----------------------------------------------------------------------------

type FileStats = Map<string, Map<string, number>>
type FortuneEntry = Candidate & { file: string; chars: number }

function bump(stats: FileStats, file: string, reason: string): void {
  const s = stats.get(file) ?? new Map<string, number>()
  s.set(reason, (s.get(reason) ?? 0) + 1)
  stats.set(file, s)
}

/** Every per-entry rule except length and duplicates: the quote, or why it is dropped. */
function judge(raw: string): { quote: string; author: string } | string {
  const split = parse.splitAttribution(parse.cleanControls(raw))
  // Only attributed entries: an API of quotations needs an author for every quote.
  if (!split) return 'unattributed'
  // Several `-- Name` lines: a compilation; the last name would be wrong for the rest.
  if (split.multiple) return 'several attributions'
  // Chat logs, IRC, e-mail exchanges, scripted dialogue and riddles are transcripts.
  if (parse.isDialogue(split.body, split.attribution)) return 'chat / dialogue / Q&A'
  // The author must be a person's name, not a book, paper, proverb, URL or "Anonymous".
  const author = parse.parseAuthor(split.attribution)
  if ('reject' in author) return `attribution: ${author.reject}`
  const quote = parse.normaliseBody(split.body)
  if (!/\p{L}/u.test(quote)) return 'empty text'
  // ASCII art and source code do not survive whitespace normalisation and are not quotes.
  if (parse.looksLikeArt(quote)) return 'ascii art / code'
  return { quote, author: author.author }
}

/** Reads all fortune files in package/file/position order, applying judge(). */
function readFortunes(debs: { pkg: string; root: string }[], stats: FileStats): FortuneEntry[] {
  const out: FortuneEntry[] = []
  for (const { pkg, root } of debs) {
    const base = join(root, FORTUNE_DIR)
    for (const path of fortuneFiles(base)) {
      const rel = relative(base, path)
      const file = `${pkg}/${rel}`
      // Offensive fortunes live in an off/ directory (package fortunes-off, not used here,
      // but a future package layout must not smuggle them in).
      const excluded = rel.split('/').includes('off') ? 'offensive (off/)' : EXCLUDED_FILES[rel]
      for (const raw of parse.splitEntries(parse.decodeText(readFileSync(path)).text)) {
        const result = excluded ? `excluded file: ${excluded}` : judge(raw)
        if (typeof result === 'string') bump(stats, file, result)
        else
          out.push({
            ...result,
            source: 'fortunes',
            tags: [],
            file,
            chars: [...result.quote].length,
          })
      }
    }
  }
  return out
}

/** Length and duplicate rules. Duplicates are compared on letters and digits only (case,
 *  whitespace and punctuation ignored), so near-copies like `knowledge.` / `knowledge...` go too.
 *  The quotable text wins because its attribution is curated; among fortunes the first in
 *  package/file/position order wins. */
function select(
  quotable: Candidate[],
  fortunes: FortuneEntry[],
  maxChars: number,
  stats: FileStats,
) {
  const seen = new Set(quotable.map((q) => parse.dedupKey(q.quote)))
  const kept: FortuneEntry[] = []
  for (const f of fortunes) {
    const key = parse.dedupKey(f.quote)
    if (f.chars > maxChars) bump(stats, f.file, `too long (> ${maxChars} chars)`)
    else if (seen.has(key)) bump(stats, f.file, 'duplicate')
    else {
      seen.add(key)
      kept.push(f)
      bump(stats, f.file, 'kept')
    }
  }
  return kept
}

// --- ids ----------------------------------------------------------------------------------

const idKey = (q: { quote: string; author: string }): string =>
  `${parse.normKey(q.quote)}\u0000${parse.normKey(q.author)}`
const idNum = (id: string): number => Number(id.slice(1))

/** Stable ids: an entry whose normalised (quote, author) exists in the current file keeps its
 *  id (identical pairs, e.g. quotable's own duplicates, take their ids in order); anything new
 *  is numbered after the current maximum, so ids that disappeared are never handed out again
 *  within this file's history as long as the highest id stays in use. */
function assignIds(candidates: Candidate[]): { quotes: Quote[]; added: number; retired: string[] } {
  const previous: Quote[] = existsSync(OUT_JSON) ? JSON.parse(readFileSync(OUT_JSON, 'utf8')) : []
  const pool = new Map<string, number[]>()
  let max = 0
  for (const q of previous) {
    if (!/^q\d+$/.test(q.id)) throw new Error(`unexpected id ${q.id} in ${OUT_JSON}`)
    max = Math.max(max, idNum(q.id))
    pool.set(idKey(q), [...(pool.get(idKey(q)) ?? []), idNum(q.id)])
  }
  for (const ids of pool.values()) ids.sort((a, b) => a - b)
  let added = 0
  const quotes = candidates.map((c) => {
    let n = pool.get(idKey(c))?.shift()
    if (n === undefined) {
      n = ++max
      added++
    }
    return { id: `q${n}`, quote: c.quote, author: c.author, source: c.source, tags: c.tags }
  })
  const used = new Set(quotes.map((q) => q.id))
  const retired = previous.map((q) => q.id).filter((id) => !used.has(id))
  return { quotes: quotes.sort((a, b) => idNum(a.id) - idNum(b.id)), added, retired }
}

function main(): void {
  const work = mkdtempSync(join(tmpdir(), 'build-corpus-'))
  try {
    const debs = fetchDebs(work)
    const raw = JSON.parse(readFileSync(join(QUOTABLE_DIR, 'quotes.json'), 'utf8')) as {
      _id: string
      content: string
      author: string
      tags?: string[]
    }[]
    // First-run order: quotable by _id (code-unit order, locale-independent), then fortunes.
    const quotable: Candidate[] = [...raw]
      .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
      .map((q) => ({
        quote: q.content.trim(),
        author: q.author.trim(),
        source: 'quotable',
        tags: [...new Set((q.tags ?? []).map((t) => t.trim()).filter(Boolean))],
      }))
    const baseStats: FileStats = new Map()
    const fortunes = readFortunes(debs, baseStats)
    // The length limit is loosened only if the strict one leaves fewer than MIN_TOTAL quotes.
    let maxChars = MAX_CHARS
    let stats: FileStats = new Map()
    let kept: FortuneEntry[] = []
    for (maxChars of [MAX_CHARS, LOOSE_MAX_CHARS]) {
      stats = new Map([...baseStats].map(([f, s]) => [f, new Map(s)]))
      kept = select(quotable, fortunes, maxChars, stats)
      if (quotable.length + kept.length >= MIN_TOTAL) break
      console.warn(`only ${quotable.length + kept.length} quotes at ${maxChars} chars`)
    }
    const total = quotable.length + kept.length
    if (total < MIN_TOTAL) throw new Error(`only ${total} quotes, need ${MIN_TOTAL}`)

    const { quotes, added, retired } = assignIds([
      ...quotable,
      ...kept.map(({ quote, author, source, tags }) => ({ quote, author, source, tags })),
    ])
    mkdirSync(dirname(OUT_JSON), { recursive: true })
    writeFileSync(OUT_JSON, `[\n${quotes.map((q) => JSON.stringify(q)).join(',\n')}\n]\n`)
    const counts = { quotable: quotable.length, fortunes: kept.length }
    writeFileSync(OUT_LICENSES, licenses(QUOTABLE_DIR, debs, counts, maxChars))

    // --- summary ---
    const totals = new Map<string, number>()
    console.log('\nper fortunes file: entries, kept, dropped by reason')
    for (const [file, s] of [...stats].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const n = [...s.values()].reduce((a, b) => a + b, 0)
      const drops = [...s].filter(([r]) => r !== 'kept').sort((a, b) => b[1] - a[1])
      for (const [r, c] of s) totals.set(r, (totals.get(r) ?? 0) + c)
      const why = drops.map(([r, c]) => `${r} ${c}`).join('; ')
      console.log(
        `  ${file.padEnd(26)} ${String(n).padStart(5)} ${String(s.get('kept') ?? 0).padStart(5)}  ${why}`,
      )
    }
    console.log('\nfortunes totals by reason')
    for (const [r, c] of [...totals].sort((a, b) => b[1] - a[1]))
      console.log(`${String(c).padStart(8)}  ${r}`)
    console.log(`\nquotable ${counts.quotable} + fortunes ${counts.fortunes} = ${total} quotes`)
    console.log(`max length ${maxChars} chars; ${added} new ids; ${retired.length} retired ids`)
    if (retired.length > 0) console.warn(`retired (no longer produced): ${retired.join(' ')}`)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

main()
