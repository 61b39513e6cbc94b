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
  it('has one page and both links on 1 when nothing matches', () => {
    expect(pageInfo(0, 1, 20)).toMatchObject({
      total_pages: 1,
      next_page: 1,
      previous_page: 1,
      offset: 0,
    })
  })

  it('has one page when everything fits', () => {
    expect(pageInfo(20, 1, 20)).toMatchObject({ total_pages: 1, next_page: 1, previous_page: 1 })
  })

  it('pages through the middle', () => {
    expect(pageInfo(95, 3, 20)).toMatchObject({
      current_page: 3,
      total_pages: 5,
      next_page: 4,
      previous_page: 2,
      offset: 40,
    })
  })

  it('stops next_page at the last page', () => {
    expect(pageInfo(95, 5, 20)).toMatchObject({ next_page: 5, previous_page: 4 })
  })

  it('keeps a page past the end as asked, per the spec formulas', () => {
    expect(pageInfo(95, 9, 20)).toMatchObject({
      current_page: 9,
      total_pages: 5,
      next_page: 5,
      previous_page: 8,
      offset: 160,
    })
  })
})
