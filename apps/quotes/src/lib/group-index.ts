/**
 * Quote ids grouped (by author, by tag, or one group for all), each group sorted by
 * (length, num), in three flat arrays: 8 bytes per entry plus 4 per group id. A group's quotes
 * within a length range are one contiguous slice found by binary search, so a uniform random
 * pick among them costs O(log n) and no I/O, at any corpus size.
 */
export class GroupIndex {
  private constructor(
    /** starts[g] .. starts[g + 1]: the slice of group g (ids are small dense integers). */
    private readonly starts: Int32Array,
    private readonly lens: Int32Array,
    readonly nums: Int32Array,
  ) {}

  static readonly EMPTY = GroupIndex.build([], [], [])

  /** From parallel arrays sorted by (group, length, num); groups are non-negative integers. */
  static build(groups: ArrayLike<number>, lens: ArrayLike<number>, nums: ArrayLike<number>) {
    // Stryker disable next-line UnaryOperator: a longer starts array only adds empty groups, which count() reports as 0 like unknown ones
    let maxGroup = -1
    for (let i = 0; i < groups.length; i += 1) maxGroup = Math.max(maxGroup, groups[i] as number)
    const starts = new Int32Array(maxGroup + 2)
    // Stryker disable next-line EqualityOperator: one more turn writes starts[NaN], which a typed array ignores
    for (let i = 0; i < groups.length; i += 1) {
      const g = (groups[i] as number) + 1
      starts[g] = (starts[g] as number) + 1
    }
    // Stryker disable next-line EqualityOperator: one more turn writes past the end, which a typed array ignores
    for (let g = 1; g < starts.length; g += 1) {
      starts[g] = (starts[g] as number) + (starts[g - 1] as number)
    }
    const own = (values: ArrayLike<number>) =>
      values instanceof Int32Array ? values : Int32Array.from(values)
    return new GroupIndex(starts, own(lens), own(nums))
  }

  get size(): number {
    return this.nums.length
  }

  /** How many entries group g has (0 for an unknown group). */
  count(group: number): number {
    if (group < 0 || group + 1 >= this.starts.length) return 0
    return (this.starts[group + 1] as number) - (this.starts[group] as number)
  }

  /** [lo, hi) of group g's entries whose length is within [min, max]. */
  range(group: number, min = 0, max = Number.MAX_SAFE_INTEGER): [number, number] {
    if (this.count(group) === 0 || min > max) return [0, 0]
    const start = this.starts[group] as number
    const end = this.starts[group + 1] as number
    return [this.firstAtLeast(start, end, min, 0), this.firstAtLeast(start, end, max + 1, 0)]
  }

  /** Whether group g holds `num` (whose length is `len`). */
  has(group: number, len: number, num: number): boolean {
    // Stryker disable next-line ConditionalExpression: a group without entries finds no index below its end either; this only skips the search
    if (this.count(group) === 0) return false
    const end = this.starts[group + 1] as number
    const i = this.firstAtLeast(this.starts[group] as number, end, len, num)
    return i < end && this.lens[i] === len && this.nums[i] === num
  }

  length(i: number): number {
    return this.lens[i] as number
  }

  /** First index in [lo, hi) whose (length, num) is at least (len, num). */
  private firstAtLeast(lo: number, hi: number, len: number, num: number): number {
    let a = lo
    let b = hi
    while (a < b) {
      const mid = (a + b) >>> 1
      const l = this.lens[mid] as number
      if (l < len || (l === len && (this.nums[mid] as number) < num)) a = mid + 1
      else b = mid
    }
    return a
  }
}
