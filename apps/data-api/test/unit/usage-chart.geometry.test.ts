import { describe, expect, it } from 'vitest'
import { describeUsage, niceCeiling, renderUsageChart } from '../../src/lib/usage-chart.js'

// A 100 × 60 chart: margins 48 left, 8 right, 12 top, 24 bottom leave a 44 × 24 plot.
const two = [
  { date: 'd1', requests: 5 },
  { date: 'd2', requests: 10 },
]

describe('usage chart geometry', () => {
  const svg = renderUsageChart({ id: 'g', title: 't', days: two, width: 100, height: 60 })

  it('places each bar in its slot, centred, 80% of the slot wide, on the baseline', () => {
    // Scale 10; slot 22 px, bar 17.6 px, 2.2 px either side.
    expect(svg).toContain(
      '<rect class="bar" x="50.20" y="24.00" width="17.60" height="12.00" data-date="d1" data-requests="5">',
    )
    expect(svg).toContain('requests</title></rect><rect class="bar" x="72.20"')
    expect(svg).toContain(
      '<rect class="bar" x="72.20" y="12.00" width="17.60" height="24.00" data-date="d2" data-requests="10">',
    )
  })

  it('draws the axis, the top grid line and the labels where they belong', () => {
    expect(svg).toContain('viewBox="0 0 100 60"')
    expect(svg).toContain(
      '<line class="axis" x1="48" y1="36" x2="92" y2="36"/>' +
        '<line class="grid" x1="48" y1="12" x2="92" y2="12"/>' +
        '<text class="label" x="44" y="16" text-anchor="end">10</text>' +
        '<text class="label" x="44" y="36" text-anchor="end">0</text>' +
        '<text class="label" x="48" y="54">d1</text>' +
        '<text class="label" x="92" y="54" text-anchor="end">d2</text>',
    )
    expect(svg.endsWith('</title></rect></svg>')).toBe(true)
  })

  it('is 640 × 200 unless told otherwise', () => {
    expect(renderUsageChart({ id: 'g', title: 't', days: two })).toContain('viewBox="0 0 640 200"')
  })

  it('keeps bars at least 1 px wide when there are more days than pixels', () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ date: `d${i}`, requests: 1 }))
    const narrow = renderUsageChart({ id: 'g', title: 't', days: many, width: 100, height: 60 })
    expect(narrow).toContain('x="47.72" y="12.00" width="1.00" height="24.00" data-date="d0"')
    // Slots of 0.44 px: a 1 px bar overhangs its slot by 0.28 px either side.
    expect(narrow).toContain('x="91.28" y="12.00" width="1.00" height="24.00" data-date="d99"')
  })

  it('draws an empty chart with no bars and empty date labels', () => {
    const empty = renderUsageChart({ id: 'g', title: 't', days: [], width: 100, height: 60 })
    expect(empty).not.toContain('<rect')
    expect(empty).toContain('<text class="label" x="48" y="54"></text>')
    expect(empty).toContain('text-anchor="end"></text></svg>')
    expect(empty).toContain('<desc id="g-desc">No days to show.</desc>')
  })
})

describe('describeUsage wording', () => {
  it('says "day" for one day', () => {
    expect(describeUsage([{ date: 'd1', requests: 0 }])).toBe(
      'No requests in the 1 day from d1 to d1.',
    )
  })

  it('names the first of equally busy days', () => {
    expect(
      describeUsage([
        { date: 'd1', requests: 3 },
        { date: 'd2', requests: 3 },
      ]),
    ).toBe('6 requests in the 2 days from d1 to d2; the busiest day was d1 with 3.')
  })
})

describe('niceCeiling edges', () => {
  it.each([
    [0, 1],
    [1, 1],
    [1.5, 2],
    [10, 10],
    [11, 20],
    [60, 100],
  ])('%d → %d', (n, ceiling) => {
    expect(niceCeiling(n)).toBe(ceiling)
  })
})
