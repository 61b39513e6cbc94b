import { describe, expect, it } from 'vitest'
import { pageInfo } from '../../src/lib/pagination.js'
import { searchLinks } from '../../src/lib/search-page.js'
import { intersectSorted } from '../../src/lib/tag-search.js'

const ids = (...nums: number[]) => Int32Array.from(nums)

describe('intersectSorted', () => {
  it('keeps the ids in both lists, in order, whichever is shorter', () => {
    const many = ids(1, 3, 4, 7, 9, 12, 20)
    expect([...intersectSorted(ids(3, 9, 10, 20), many)]).toEqual([3, 9, 20])
    expect([...intersectSorted(many, ids(0, 1, 21))]).toEqual([1])
    expect([...intersectSorted(many, ids(2, 5, 8))]).toEqual([])
    expect([...intersectSorted(ids(), many)]).toEqual([])
    expect([...intersectSorted(many, many)]).toEqual([...many])
  })
})

describe('searchLinks within a tag', () => {
  it('keeps the tag, with or without a term', () => {
    const page = { info: pageInfo(50, 2, 20), term: '', total: 50, estimated: false, results: [] }
    expect(searchLinks({ ...page, tag: 'self-help' }, 20)).toEqual({
      previous: '/search?tag=self-help&page=1',
      next: '/search?tag=self-help&page=3',
      last: '/search?tag=self-help&page=3',
    })
    expect(searchLinks({ ...page, term: 'a b', tag: 'life' }, 10).next).toBe(
      '/search?term=a+b&tag=life&limit=20&page=3',
    )
  })
})
