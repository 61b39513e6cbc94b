import { describe, expect, it } from 'vitest'
import { seededRandom } from '../src/seeded-random.js'

// mulberry32: reproducible numbers in [0, 1) from a 32-bit seed.

const take = (next: () => number, n: number) => Array.from({ length: n }, () => next())

describe('seededRandom', () => {
  it('gives mulberry32’s sequence for a seed', () => {
    expect(take(seededRandom(1), 4)).toEqual(GOLDEN_SEED_1)
    expect(take(seededRandom(0xdeadbeef), 4)).toEqual(GOLDEN_SEED_DEADBEEF)
  })

  it('gives the same sequence for the same seed, another for another seed', () => {
    expect(take(seededRandom(42), 50)).toEqual(take(seededRandom(42), 50))
    expect(take(seededRandom(42), 50)).not.toEqual(take(seededRandom(43), 50))
  })

  it('reads the seed as an unsigned 32-bit integer', () => {
    expect(take(seededRandom(2 ** 32 + 7), 5)).toEqual(take(seededRandom(7), 5))
    expect(take(seededRandom(-1), 5)).toEqual(take(seededRandom(2 ** 32 - 1), 5))
  })

  it('stays in [0, 1) and spreads over it', () => {
    const values = take(seededRandom(2026), 10_000)
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...values)).toBeLessThan(1)
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length
    expect(mean).toBeGreaterThan(0.48)
    expect(mean).toBeLessThan(0.52)
    const tenths = new Set(values.map((v) => Math.floor(v * 10)))
    expect(tenths.size).toBe(10)
  })
})

// From the published reference implementation of mulberry32, run separately.
const GOLDEN_SEED_1 = [
  0.6270739405881613, 0.002735721180215478, 0.5274470399599522, 0.9810509674716741,
]
const GOLDEN_SEED_DEADBEEF = [
  0.9413696140982211, 0.26719574979506433, 0.772033357527107, 0.35816076025366783,
]
