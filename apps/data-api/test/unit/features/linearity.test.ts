import {
  ENTITIES_MAX_ANALYZED_CHARACTERS,
  FEATURES,
  REDACT_PHONE_FINDER_CHARACTERS,
  REDACT_PHONE_RUN_CHARACTERS,
} from '@repo/contracts'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadAllFeatures, runFeature } from '../../../src/features/index.js'
import { type EngineWork, meter } from '../../../src/features/work.js'
import { INPUT_CLASS_NAMES, inputOf } from '../../support/input-classes.js'

/*
 * Linearity by work counters, not by the clock: for every feature and input class, what each
 * engine is handed grows at most in proportion to the input (4x the text, at most 4x the work,
 * plus a constant), never exceeds a small multiple of the input, and the engines whose cost
 * grows faster than their input (compromise, libphonenumber, franc) get bounded amounts.
 */

const SMALL = 16 * 1024
const LARGE = 4 * SMALL

/** Engines whose total work is capped, whatever the input: [most in all, most in one call]. */
const BOUNDED: Record<string, [number, number]> = {
  // Pieces joined by line breaks: at most one more character per piece.
  compromise: [ENTITIES_MAX_ANALYZED_CHARACTERS * 1.1, 5_000 + 400],
  libphonenumber: [REDACT_PHONE_FINDER_CHARACTERS, REDACT_PHONE_RUN_CHARACTERS],
  franc: [2048, 2048],
}

const measure = (feature: (typeof FEATURES)[number], text: string) =>
  meter.measure(() => runFeature(feature, text, { feature }))

beforeAll(loadAllFeatures)

describe.each(FEATURES)('%s', (feature) => {
  it.each(INPUT_CLASS_NAMES)('does work in proportion to the input on %s', (kind) => {
    const small = inputOf(kind, SMALL)
    const large = inputOf(kind, LARGE)
    const before = measure(feature, small)
    const after = measure(feature, large)
    for (const [engine, work] of Object.entries(after) as Array<[string, EngineWork]>) {
      const bound = BOUNDED[engine]
      if (bound) {
        expect(work.units, engine).toBeLessThanOrEqual(bound[0])
        expect(work.largest, engine).toBeLessThanOrEqual(bound[1])
        continue
      }
      // Each code unit is handed to an engine about once (a grapheme run with its neighbours).
      expect(work.units, engine).toBeLessThanOrEqual(large.length * 1.05 + 2 * work.calls)
      // The constant: what a budgeted engine took at the small size moves to another engine
      // (libphonenumber's characters to the phone shape) at the large one.
      const earlier = before[engine]?.units ?? 0
      expect(work.units, engine).toBeLessThanOrEqual(
        (earlier + REDACT_PHONE_FINDER_CHARACTERS) * (LARGE / SMALL) * 1.1,
      )
    }
  })
})

describe('the bounded engines', () => {
  it('tag no more for entities when the text has many more names', () => {
    const names = Array.from({ length: 5000 }, (_, i) => `Person${i} Family${i} met us.`)
    const work = measure('entities', names.join(' '))
    expect(work.compromise?.units).toBeGreaterThan(ENTITIES_MAX_ANALYZED_CHARACTERS * 0.9)
    expect(work.compromise?.units).toBeLessThanOrEqual(ENTITIES_MAX_ANALYZED_CHARACTERS * 1.1)
  })

  it('hand libphonenumber at most its budget, however many numbers there are', () => {
    const phones = Array.from({ length: 3000 }, (_, i) => `call +44 20 7946 ${1000 + i}`)
    const work = measure('redact', phones.join(', '))
    expect(work.libphonenumber?.units).toBeLessThanOrEqual(REDACT_PHONE_FINDER_CHARACTERS)
    expect(work.libphonenumber?.units).toBeGreaterThan(REDACT_PHONE_FINDER_CHARACTERS - 20)
    expect(work['phone-shape']?.calls).toBeGreaterThan(2000)
  })

  it('give franc the same sample whatever the length', () => {
    const text = inputOf('english', 200_000)
    expect(measure('language', text).franc).toEqual({ calls: 1, units: 2048, largest: 2048 })
  })
})
