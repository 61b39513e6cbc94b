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

describe('options built to be slow or deep', () => {
  const options = FEATURES.flatMap((feature) =>
    Object.entries(
      FEATURE_OPTIONS[feature].properties as unknown as Record<string, Record<string, unknown>>,
    )
      .filter(([name]) => name !== 'feature')
      .map(([name, property]) => [feature, name, property] as const),
  )
  const lists = options.filter(([, , property]) => property.type === 'array')

  it('every option is a scalar or a list of scalars, and every list has a maxItems', () => {
    expect(lists.length).toBeGreaterThan(0)
    for (const [, , property] of options) {
      const items = property.items as Record<string, unknown> | undefined
      const scalar = (schema: Record<string, unknown> | undefined) =>
        schema !== undefined && schema.type !== 'object' && schema.type !== 'array'
      expect(property.type === 'array' ? scalar(items) : scalar(property)).toBe(true)
    }
    for (const [, , property] of lists) expect(property.maxItems).toBeTypeOf('number')
  })

  /** 200,000 items that count their reads, and throw past two reads each. */
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

  // TypeBox's error for uniqueItems copies its list of duplicates once per duplicate.
  it.each(lists)('refuses %s %s of 200,000 items reading each at most twice', (feature, name) => {
    for (const item of ['ips', {}, [[]]]) {
      const given = { feature, [name]: countedList(item) }
      expect(() => validateOptions(feature, given)).toThrow(
        new RegExp(`^Option "${name}" of the ${feature} feature must be `),
      )
    }
  })

  // JSON.parse takes any depth; a recursive check, error list or preview overflowed the stack.
  const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)
  it.each(options)(
    'refuses %s %s holding a value 100,000 deep with a 400’s message',
    (feature, name) => {
      for (const value of [deep, [deep], { a: deep }]) {
        expect(() => validateOptions(feature, { feature, [name]: value })).toThrow(
          new RegExp(`^Option "${name}" of the ${feature} feature must be .*; got `),
        )
      }
    },
  )
})
