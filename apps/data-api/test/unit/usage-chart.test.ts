import { describe, expect, it } from 'vitest'
import { describeUsage, niceCeiling, renderUsageChart } from '../../src/lib/usage-chart.js'
import { safeCell, toCsv } from '../../src/lib/usage-csv.js'

const days = [
  { date: '2026-11-20', requests: 0 },
  { date: '2026-11-21', requests: 40 },
  { date: '2026-11-22', requests: 1_234 },
  { date: '2026-11-23', requests: 7 },
]

const bars = (svg: string) =>
  [
    ...svg.matchAll(
      /<rect class="bar" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g,
    ),
  ].map((m) => ({ x: Number(m[1]), y: Number(m[2]), width: Number(m[3]), height: Number(m[4]) }))

describe('the usage chart', () => {
  it('is an image named by its title and described by its desc', () => {
    const svg = renderUsageChart({ id: 'k1', title: 'Usage of “prod”', days })
    expect(svg).toMatch(/^<svg [^>]*role="img"[^>]*aria-labelledby="k1-title k1-desc"/)
    expect(svg).toContain('<title id="k1-title">Usage of “prod”</title>')
    expect(svg).toContain(
      '<desc id="k1-desc">1,281 requests in the 4 days from 2026-11-20 to 2026-11-23; the busiest day was 2026-11-22 with 1,234.</desc>',
    )
  })

  it('draws one bar per day, in order, as tall as its count on a round scale', () => {
    const svg = renderUsageChart({ id: 'c', title: 't', days, width: 640, height: 200 })
    const drawn = bars(svg)
    expect(drawn).toHaveLength(4)
    expect(drawn.map((b) => b.x)).toEqual([...drawn.map((b) => b.x)].sort((a, b) => a - b))
    // The scale tops at 2,000 (the round number above 1,234); the plot is 164 px high.
    expect(drawn[0]?.height).toBe(0)
    expect(drawn[2]?.height).toBeCloseTo((1_234 / 2_000) * 164, 1)
    expect(drawn[1]?.height).toBeCloseTo((40 / 2_000) * 164, 1)
    // Every bar stands on the same baseline.
    for (const b of drawn) expect(b.y + b.height).toBeCloseTo(176, 1)
    expect(svg).toContain('>2,000</text>')
    expect(svg).toContain('<title>2026-11-22: 1,234 requests</title>')
    expect(svg).toContain('>2026-11-20</text>')
    expect(svg).toContain('>2026-11-23</text>')
  })

  it('escapes what it is given', () => {
    const svg = renderUsageChart({ id: 'a"b', title: '<script>&', days })
    expect(svg).toContain('<title id="a&quot;b-title">&lt;script&gt;&amp;</title>')
    expect(svg).not.toContain('<script>')
  })

  it('says so when there was no use, and copes with no days at all', () => {
    const quiet = days.map((d) => ({ ...d, requests: 0 }))
    expect(describeUsage(quiet)).toBe('No requests in the 4 days from 2026-11-20 to 2026-11-23.')
    expect(
      bars(renderUsageChart({ id: 'q', title: 'q', days: quiet })).every((b) => b.height === 0),
    ).toBe(true)
    expect(renderUsageChart({ id: 'e', title: 'e', days: [] })).toContain('No days to show.')
  })

  it('rounds scales up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 10, 11, 99, 101, 250, 5_001].map(niceCeiling)).toEqual([
      1, 1, 5, 10, 20, 100, 200, 500, 10_000,
    ])
  })
})

describe('usage CSV', () => {
  it('quotes as RFC 4180 says and defuses spreadsheet formulas', () => {
    const csv = toCsv(
      ['date', 'key_name', 'requests'],
      [
        ['2026-11-22', safeCell('=HYPERLINK("x")'), 3],
        ['2026-11-23', safeCell('prod, "eu"'), 0],
      ],
    )
    expect(csv).toBe(
      'date,key_name,requests\r\n2026-11-22,"\'=HYPERLINK(""x"")",3\r\n2026-11-23,"prod, ""eu""",0\r\n',
    )
    expect(safeCell('-1+2')).toBe("'-1+2")
    expect(safeCell('@cmd')).toBe("'@cmd")
    expect(safeCell('plain name')).toBe('plain name')
  })
})
