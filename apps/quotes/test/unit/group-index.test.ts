import { describe, expect, it } from 'vitest'
import { GroupIndex } from '../../src/lib/group-index.js'

// (group, length, num), sorted: group 0 holds (5, 7), (10, 1), (10, 4); group 1 holds nothing;
// group 2 holds (20, 2), (30, 9).
const index = GroupIndex.build([0, 0, 0, 2, 2], [5, 10, 10, 20, 30], [7, 1, 4, 2, 9])

describe('GroupIndex', () => {
  it('holds every entry, with its length by position', () => {
    expect(index.size).toBe(5)
    expect([...index.nums]).toEqual([7, 1, 4, 2, 9])
    expect([0, 1, 2, 3, 4].map((i) => index.length(i))).toEqual([5, 10, 10, 20, 30])
  })

  it('counts nothing for an empty, negative or unknown group', () => {
    expect([-1, 0, 1, 2, 3, 9].map((g) => index.count(g))).toEqual([0, 3, 0, 2, 0, 0])
  })

  it('gives an empty range for a group without entries', () => {
    for (const group of [-1, 1, 3, 9]) expect(index.range(group)).toEqual([0, 0])
  })

  it('includes both bounds of a length range, a single length included', () => {
    expect(index.range(0)).toEqual([0, 3])
    expect(index.range(0, 10, 10)).toEqual([1, 3])
    expect(index.range(0, 5, 5)).toEqual([0, 1])
    expect(index.range(2, 20, 29)).toEqual([3, 4])
    expect(index.range(2, 21, 30)).toEqual([4, 5])
    expect(index.range(0, 11, 9)).toEqual([0, 0])
  })

  it('finds a member by its length and number, nothing else', () => {
    expect(index.has(0, 5, 7)).toBe(true)
    expect(index.has(0, 10, 1)).toBe(true)
    expect(index.has(2, 30, 9)).toBe(true)
    // right length, wrong number; right number, wrong length
    expect(index.has(0, 10, 3)).toBe(false)
    expect(index.has(0, 6, 1)).toBe(false)
    // the next group's first entry is not this group's
    expect(index.has(0, 20, 2)).toBe(false)
    expect(index.has(1, 20, 2)).toBe(false)
    expect(index.has(9, 20, 2)).toBe(false)
    expect(index.has(-1, 5, 7)).toBe(false)
  })

  it('starts empty', () => {
    expect(GroupIndex.EMPTY.size).toBe(0)
    expect(GroupIndex.EMPTY.count(0)).toBe(0)
    expect(GroupIndex.EMPTY.range(0)).toEqual([0, 0])
    expect(GroupIndex.EMPTY.has(0, 0, 0)).toBe(false)
  })

  it('keeps typed arrays as given and copies other arrays', () => {
    const nums = Int32Array.from([3, 1])
    expect(GroupIndex.build([0, 0], [1, 2], nums).nums).toBe(nums)
    const copied = GroupIndex.build([0, 0], Int32Array.from([1, 2]), [3, 1])
    expect(copied.nums).toBeInstanceOf(Int32Array)
    expect([...copied.nums]).toEqual([3, 1])
  })
})
