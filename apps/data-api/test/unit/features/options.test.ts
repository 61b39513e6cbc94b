import { FEATURE_OPTIONS, FEATURES, type FeatureName } from '@repo/contracts'
import type { TSchema } from 'typebox'
import { describe, expect, it } from 'vitest'
import { expectation, FeatureOptionsError, validateOptions } from '../../../src/features/options.js'

const schema = (value: Record<string, unknown>) => value as unknown as TSchema

describe('what an option must be, in words', () => {
  it.each([
    [{ enum: ['a', 'b'] }, 'one of a, b'],
    [{ const: 'x' }, '"x"'],
    [{ type: 'integer', minimum: 1, maximum: 5 }, 'an integer from 1 to 5'],
    [{ type: 'number', minimum: 1 }, 'a number of at least 1'],
    [{ type: 'number', maximum: 2 }, 'a number of at most 2'],
    [{ type: 'number' }, 'a number'],
    [{ type: 'integer' }, 'an integer'],
    [{ type: 'string', maxLength: 1 }, 'a single character other than a space'],
    [{ type: 'string', maxLength: 2 }, 'a string'],
    [{ type: 'boolean' }, 'true or false'],
    [
      { type: 'array', items: { enum: ['x', 'y'] }, uniqueItems: true, minItems: 1 },
      'a non-empty list of distinct values among x, y',
    ],
    [{ type: 'array', minItems: 0 }, 'a list of values'],
    [{ type: 'array', items: { type: 'string' } }, 'a list of values'],
    [{ type: 'object' }, 'valid'],
  ])('describes %j as %j', (value, words) => {
    expect(expectation(schema(value))).toBe(words)
  })
})

describe('validateOptions', () => {
  it('refuses a feature that does not exist, naming those that do', () => {
    expect(() => validateOptions('nope' as FeatureName, {})).toThrow(
      new FeatureOptionsError(`There is no feature "nope". Choose one of: ${FEATURES.join(', ')}.`),
    )
  })

  it('names its error class', () => {
    expect(new FeatureOptionsError('x').name).toBe('FeatureOptionsError')
  })
})

describe('list options on hostile input', () => {
  const lists = FEATURES.flatMap((feature) =>
    Object.entries(
      FEATURE_OPTIONS[feature].properties as unknown as Record<string, Record<string, unknown>>,
    )
      .filter(([, property]) => property.type === 'array')
      .map(([name, property]) => [feature, name, property] as const),
  )

  it('every list option is bounded by maxItems (its uniqueItems check compares every pair)', () => {
    expect(lists.length).toBeGreaterThan(0)
    for (const [, , property] of lists) expect(property.maxItems).toBeTypeOf('number')
  })

  /** 200,000 items that count their reads, and throw past two reads each (a pairwise check). */
  function countedList(item: unknown) {
    let reads = 0
    return new Proxy(Array(200_000).fill(item), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key) && ++reads > 400_000) {
          throw new Error('the items were read again and again')
        }
        return Reflect.get(target, key, receiver)
      },
    })
  }

  it.each(lists)('refuses %s %s of 200,000 items reading each at most twice', (feature, name) => {
    for (const item of ['ips', {}, [[]]]) {
      const options = { feature, [name]: countedList(item) }
      expect(() => validateOptions(feature, options)).toThrow(
        new RegExp(`^Option "${name}" of the ${feature} feature must be `),
      )
    }
  })
})
