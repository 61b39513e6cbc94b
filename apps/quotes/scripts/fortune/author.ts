// A clean personal name read from an attribution, or why there is none.
import { collapse } from './body.js'

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
