// What an entry is, beyond a quote: a dialogue, ASCII art or code.
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
