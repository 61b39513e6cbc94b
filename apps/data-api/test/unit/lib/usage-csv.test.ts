import { describe, expect, it } from 'vitest'
import { safeCell, toCsv } from '../../../src/lib/usage-csv.js'

describe('safeCell', () => {
  it.each(['=SUM(A1)', '+1', '-1', '@cmd', '\tx', '\rx'])(
    'prefixes %j with a quote, so a spreadsheet shows it as text',
    (text) => {
      expect(safeCell(text)).toBe(`'${text}`)
    },
  )

  it.each(['plain', 'a=b', ' =x', '', '1-2'])('leaves %j as it is', (text) => {
    expect(safeCell(text)).toBe(text)
  })
})

describe('toCsv', () => {
  it('writes a header row and RFC 4180 rows with CRLF line ends, quoting as needed', () => {
    expect(toCsv(['day', 'name', 'n'], [['2026-01-02', 'a, "b"', 3]])).toBe(
      'day,name,n\r\n2026-01-02,"a, ""b""",3\r\n',
    )
  })
})
