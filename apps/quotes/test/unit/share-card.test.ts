import { describe, expect, it } from 'vitest'
import { CARD_HEIGHT, CARD_WIDTH, cardPng, cardSvg, wrap } from '../../src/lib/share-card.js'

/** The quote's text as laid out: its font size, and each line with its baseline. */
function quoteText(svg: string) {
  const text =
    /<text font-family="DejaVu Serif" font-size="(\d+)" fill="#1d1d1b">(.*?)<\/text>/.exec(svg)
  if (!text) throw new Error(`no quote text in ${svg}`)
  const lines = [...(text[2] as string).matchAll(/<tspan x="80" y="([\d.]+)">(.*?)<\/tspan>/g)]
  return {
    size: Number(text[1]),
    ys: lines.map((line) => Number(line[1])),
    lines: lines.map((line) => line[2] as string),
  }
}

/** `n` letters: one word, so the lines are cut at exactly the width (with the quote marks). */
const letters = (n: number) => 'a'.repeat(n)

describe('wrap', () => {
  it('fills a line up to its width exactly', () => {
    expect(wrap('one two', 7)).toEqual(['one two'])
    expect(wrap('one two', 6)).toEqual(['one', 'two'])
  })

  it('ignores spaces around and between words, and blank lines', () => {
    expect(wrap('  one   two  ', 9)).toEqual(['one two'])
    expect(wrap('\none\n\n\ntwo\n', 9)).toEqual(['one', 'two'])
  })

  it('starts a new line at each line break', () => {
    expect(wrap('one\ntwo', 9)).toEqual(['one', 'two'])
  })

  it('ends the current line before cutting a long word, and leaves no empty line', () => {
    expect(wrap('ab abcdefghij', 4)).toEqual(['ab', 'abcd', 'efgh', 'ij'])
    expect(wrap('abcdefgh', 4)).toEqual(['abcd', 'efgh'])
    expect(wrap('abcdefgh ab', 4)).toEqual(['abcd', 'efgh', 'ab'])
  })

  it('counts characters, not UTF-16 units', () => {
    expect(wrap('😀😀😀😀😀', 2)).toEqual(['😀😀', '😀😀', '😀'])
  })
})

describe('cardSvg', () => {
  it('draws the quote, its author and its id on the card', () => {
    expect(cardSvg('Be kind.', 'Anon', 'q1')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" ' +
        'role="img" aria-label="Be kind. — Anon">' +
        '<rect width="100%" height="100%" fill="#fdfaf3"/>' +
        '<rect x="0" y="0" width="16" height="100%" fill="#7a3b12"/>' +
        '<text font-family="DejaVu Serif" font-size="56" fill="#1d1d1b">' +
        '<tspan x="80" y="299.5">“Be kind.”</tspan></text>' +
        '<text x="80" y="550" font-family="DejaVu Serif" font-size="34" font-style="italic" ' +
        'fill="#7a3b12">— Anon</text>' +
        '<text x="1120" y="550" text-anchor="end" font-family="DejaVu Serif" font-size="24" ' +
        'fill="#6b6b6b">Quotes · q1</text></svg>',
    )
    expect([CARD_WIDTH, CARD_HEIGHT]).toEqual([1200, 630])
  })

  it('escapes the quote, the author and the id', () => {
    const svg = cardSvg('1 < 2 & "so"', 'Tom & <Jerry>', 'q"1')
    expect(svg).toContain('aria-label="1 &#60; 2 &#38; &#34;so&#34; — Tom &#38; &#60;Jerry&#62;"')
    expect(quoteText(svg).lines).toEqual(['“1 &#60; 2 &#38; &#34;so&#34;”'])
    expect(svg).toContain('>— Tom &#38; &#60;Jerry&#62;</text>')
    expect(svg).toContain('>Quotes · q&#34;1</text>')
  })

  it('cuts authors over 60 characters to 59 and an ellipsis', () => {
    expect(cardSvg('Hi', 'b'.repeat(60), 'q1')).toContain(`>— ${'b'.repeat(60)}</text>`)
    expect(cardSvg('Hi', 'b'.repeat(61), 'q1')).toContain(`>— ${'b'.repeat(59)}…</text>`)
  })

  // Sizes 56 / 48 / ... / 24 hold 33 / 39 / ... / 78 characters a line, 5 / 6 / ... / 12 lines,
  // 73 / 62 / ... / 31 pixels apart; the text is centred in the 400 pixels above the author.
  it('sets the largest size at which the quote fits, lines spaced and centred', () => {
    expect(quoteText(cardSvg(letters(163), 'A', 'q1'))).toEqual({
      size: 56,
      ys: [153.5, 226.5, 299.5, 372.5, 445.5],
      lines: [`“${letters(32)}`, letters(33), letters(33), letters(33), `${letters(32)}”`],
    })
    const smaller = quoteText(cardSvg(letters(164), 'A', 'q1'))
    expect(smaller.size).toBe(48)
    expect(smaller.ys).toEqual([173, 235, 297, 359, 421])
    expect(smaller.lines.map((line) => [...line].length)).toEqual([39, 39, 39, 39, 10])
    expect(cardSvg(letters(40), 'A', 'q1')).toContain(
      `<tspan x="80" y="263">“${letters(32)}</tspan><tspan x="80" y="336">${letters(8)}”</tspan></text>`,
    )
  })

  it('keeps 12 lines at the smallest size, the last one ending in an ellipsis', () => {
    const full = quoteText(cardSvg(letters(934), 'A', 'q1'))
    expect(full.size).toBe(24)
    expect(full.ys).toEqual(Array.from({ length: 12 }, (_, i) => 118 + 31 * i))
    expect(full.lines[11]).toBe(`${letters(77)}”`)
    const over = quoteText(cardSvg(letters(935), 'A', 'q1'))
    expect(over.size).toBe(24)
    expect(over.ys).toEqual(full.ys)
    expect(over.lines.slice(0, 11)).toEqual(full.lines.slice(0, 11))
    expect(over.lines[11]).toBe(`${letters(77)}…`)
  })
})

describe('cardPng', () => {
  const png = (quote: string) => cardPng(cardSvg(quote, 'Anon', 'q1'))

  it('renders a PNG of the card size', () => {
    const image = png('Be kind.')
    expect(image.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))
    // IHDR: width and height, big-endian, after the chunk's length and type
    expect([image.readUInt32BE(16), image.readUInt32BE(20)]).toEqual([1200, 630])
  })

  it('draws the text with the shipped font: the same card twice, other text otherwise', () => {
    expect(png('Be kind.').equals(png('Be kind.'))).toBe(true)
    expect(png('Be kind.').equals(png('Be bold.'))).toBe(false)
  })

  it('draws any font family in the shipped font, never a system one', () => {
    const text = (family: string) =>
      cardPng(
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="60">' +
          `<text x="10" y="40" ${family} font-size="30">Be kind.</text></svg>`,
      )
    const serif = text('font-family="DejaVu Serif"')
    expect(text('font-family="No Such Font"').equals(serif)).toBe(true)
    expect(text('').equals(serif)).toBe(true)
  })
})
