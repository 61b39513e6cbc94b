import { describe, expect, it } from 'vitest'
import { clampLimit, pageInfo } from '../../src/lib/pagination.js'

describe('clampLimit', () => {
  it('defaults to 20 and clamps to 30', () => {
    expect(clampLimit(undefined)).toBe(20)
    expect(clampLimit(5)).toBe(5)
    expect(clampLimit(30)).toBe(30)
    expect(clampLimit(31)).toBe(30)
    expect(clampLimit(1_000_000)).toBe(30)
  })
})

describe('pageInfo', () => {
  // [case, total, page, limit, what pageInfo must say]
  it.each([
    [
      'one page and both links on 1 when nothing matches',
      [0, 1, 20],
      { total_pages: 1, next_page: 1, previous_page: 1, offset: 0 },
    ],
    [
      'one page when everything fits',
      [20, 1, 20],
      { total_pages: 1, next_page: 1, previous_page: 1 },
    ],
    [
      'the middle of the pages',
      [95, 3, 20],
      { current_page: 3, total_pages: 5, next_page: 4, previous_page: 2, offset: 40 },
    ],
    ['next_page stopped at the last page', [95, 5, 20], { next_page: 5, previous_page: 4 }],
    [
      'a page past the end kept as asked, per the spec formulas',
      [95, 9, 20],
      { current_page: 9, total_pages: 5, next_page: 5, previous_page: 8, offset: 160 },
    ],
  ] as const)('%s', (_case, [total, page, limit], expected) => {
    expect(pageInfo(total, page, limit)).toMatchObject(expected)
  })
})
