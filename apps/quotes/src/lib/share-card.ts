import { Resvg } from '@resvg/resvg-js'
import { paths } from '../paths.js'

export const CARD_WIDTH = 1200
export const CARD_HEIGHT = 630
const MARGIN = 80
const FONT = 'DejaVu Serif'

/** Text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/**
 * Greedy word wrap to `width` characters; a word longer than a line is cut. Serif glyphs average
 * about 0.55 em, which is what the widths below assume.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  // Blank paragraphs and runs of spaces give empty words, which are dropped.
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (let word of paragraph.split(/\s/).filter(Boolean)) {
      // Stryker disable next-line EqualityOperator: a word exactly a line long gets its own line either way
      while ([...word].length > width) {
        if (line) lines.push(line)
        line = ''
        lines.push([...word].slice(0, width).join(''))
        word = [...word].slice(width).join('')
      }
      if (line === '') line = word
      else if ([...line].length + 1 + [...word].length <= width) line += ` ${word}`
      else {
        lines.push(line)
        line = word
      }
    }
    if (line) lines.push(line)
  }
  return lines
}

/** Font size, line height and the lines of the text, the largest size that fits the card. */
function layout(quote: string) {
  for (const size of [56, 48, 42, 36, 32, 28, 24]) {
    const perLine = Math.floor((CARD_WIDTH - 2 * MARGIN) / (size * 0.55))
    const lineHeight = Math.round(size * 1.3)
    const maxLines = Math.floor((CARD_HEIGHT - 2 * MARGIN - 70) / lineHeight)
    const lines = wrap(`“${quote}”`, perLine)
    if (lines.length <= maxLines) return { size, lineHeight, lines }
    if (size === 24) {
      const kept = lines.slice(0, maxLines)
      kept[maxLines - 1] = `${(kept[maxLines - 1] as string).slice(0, perLine - 1)}…`
      return { size, lineHeight, lines: kept }
    }
  }
  // Stryker disable next-line all: the loop always returns at its last size
  throw new Error('unreachable')
}

/** The share card of a quote as SVG, written by hand: the text wrapped, the author under it. */
export function cardSvg(quote: string, author: string, id: string): string {
  const { size, lineHeight, lines } = layout(quote)
  const top =
    MARGIN + size + Math.max(0, (CARD_HEIGHT - 2 * MARGIN - 70 - lines.length * lineHeight) / 2)
  const text = lines
    .map((line, i) => `<tspan x="${MARGIN}" y="${top + i * lineHeight}">${escapeXml(line)}</tspan>`)
    .join('')
  const authorLine = escapeXml(`— ${author.length > 60 ? `${author.slice(0, 59)}…` : author}`)
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" ` +
    `viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" role="img" aria-label="${escapeXml(`${quote} — ${author}`)}">` +
    `<rect width="100%" height="100%" fill="#fdfaf3"/>` +
    `<rect x="0" y="0" width="16" height="100%" fill="#7a3b12"/>` +
    `<text font-family="${FONT}" font-size="${size}" fill="#1d1d1b">${text}</text>` +
    `<text x="${MARGIN}" y="${CARD_HEIGHT - MARGIN}" font-family="${FONT}" font-size="34" ` +
    `font-style="italic" fill="#7a3b12">${authorLine}</text>` +
    `<text x="${CARD_WIDTH - MARGIN}" y="${CARD_HEIGHT - MARGIN}" text-anchor="end" ` +
    `font-family="${FONT}" font-size="24" fill="#6b6b6b">Quotes · ${escapeXml(id)}</text>` +
    '</svg>'
  )
}

/** The PNG of a card, rendered by resvg with the font shipped in assets/fonts (no system fonts). */
export function cardPng(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    font: {
      fontFiles: [paths.cardFont],
      // Stryker disable next-line BooleanLiteral: the shipped font is drawn either way; system fonts only cost time
      loadSystemFonts: false,
      defaultFontFamily: FONT,
    },
  })
  return resvg.render().asPng()
}
