import { FEATURE_RESULTS, FEATURES, type FeatureName } from '@repo/contracts'
import { Value } from 'typebox/value'
import { beforeAll, describe, expect, it } from 'vitest'
import { FeatureOptionsError, loadAllFeatures, runFeature } from '../../../src/features/index.js'
import { UNKNOWN_OPTIONS_NAMED } from '../../../src/features/options.js'

const TEXT =
  'Barack Obama visited Paris with executives from Microsoft. I love this city, it is wonderful! ' +
  'Write to a.b@example.com or call (212) 555-0123.\n\nThe second paragraph is short. It ends here.'

function optionsError(feature: FeatureName, options: unknown): string {
  try {
    runFeature(feature, TEXT, options)
  } catch (error) {
    expect(error).toBeInstanceOf(FeatureOptionsError)
    return (error as Error).message
  }
  throw new Error('runFeature accepted the options')
}

beforeAll(async () => {
  await loadAllFeatures()
})

describe('runFeature', () => {
  it.each(FEATURES)('runs %s and returns what its result schema describes', (feature) => {
    const result = runFeature(feature, TEXT, { feature })
    expect(Value.Errors(FEATURE_RESULTS[feature], result)).toEqual([])
  })

  it.each(FEATURES)('runs %s on an empty text', (feature) => {
    const result = runFeature(feature, '', { feature })
    expect(Value.Check(FEATURE_RESULTS[feature], result)).toBe(true)
  })

  it('refuses an unknown option, naming it and the allowed ones', () => {
    const message = optionsError('keywords', { feature: 'keywords', lmit: 5 })
    expect(message).toContain('"lmit"')
    expect(message).toContain('limit')
  })

  it('says when a feature takes no options', () => {
    expect(optionsError('stats', { feature: 'stats', verbose: true })).toBe(
      'Unknown option "verbose" for the stats feature. The stats feature takes no options besides "feature".',
    )
  })

  it('names the first unknown options only, however many a body carries', () => {
    expect(optionsError('keywords', { feature: 'keywords', a: 1, b: 2 })).toBe(
      'Unknown options "a", "b" for the keywords feature. Its options are: limit.',
    )
    const many: Record<string, unknown> = { feature: 'stats' }
    for (let i = 0; i < 120_000; i++) many[`k${i}`] = i
    expect(optionsError('stats', many)).toBe(
      `Unknown options ${[0, 1, 2, 3, 4].map((i) => `"k${i}"`).join(', ')} and more for the stats feature. ` +
        'The stats feature takes no options besides "feature".',
    )
    expect(UNKNOWN_OPTIONS_NAMED).toBe(5)
  })

  it('clips an unknown option’s name in the message', () => {
    const message = optionsError('stats', { feature: 'stats', ['n'.repeat(100_000)]: 1 })
    expect(message).toBe(
      `Unknown option "${'n'.repeat(39)}… for the stats feature. The stats feature takes no options besides "feature".`,
    )
  })

  it('refuses an option of the wrong type, saying what it must be', () => {
    expect(optionsError('keywords', { feature: 'keywords', limit: '5' })).toBe(
      'Option "limit" of the keywords feature must be an integer from 1 to 50; got "5".',
    )
    expect(optionsError('summary', { feature: 'summary', sentences: 2.5 })).toContain(
      'Option "sentences" of the summary feature must be an integer from 1 to 20',
    )
  })

  it.each([
    ['keywords', { limit: 0 }, 'limit'],
    ['keywords', { limit: 51 }, 'limit'],
    ['summary', { sentences: 21 }, 'sentences'],
    ['summary', { sentences: 0 }, 'sentences'],
    ['language', { alternatives: 11 }, 'alternatives'],
    ['language', { alternatives: -1 }, 'alternatives'],
  ] as const)('refuses %s options %j as out of range', (feature, extra, option) => {
    const message = optionsError(feature, { feature, ...extra })
    expect(message).toContain(`Option "${option}"`)
    expect(message).toMatch(/from \d+ to \d+/)
  })

  it('refuses more kinds than there are', () => {
    expect(
      optionsError('redact', { feature: 'redact', kinds: ['ips', 'ips', 'ips', 'ips', 'ips'] }),
    ).toBe(
      'Option "kinds" of the redact feature must be a non-empty list of distinct values among emails, phones, cards, ips; got ["ips","ips","ips","ips","ips"].',
    )
  })

  it('refuses bad redact options', () => {
    expect(optionsError('redact', { feature: 'redact', kinds: ['emails', 'passwords'] })).toContain(
      'Option "kinds" of the redact feature must be a non-empty list of distinct values among emails, phones, cards, ips',
    )
    expect(optionsError('redact', { feature: 'redact', kinds: [] })).toContain('Option "kinds"')
    expect(optionsError('redact', { feature: 'redact', kinds: ['ips', 'ips'] })).toContain(
      'Option "kinds"',
    )
    expect(optionsError('redact', { feature: 'redact', mask: '##' })).toContain(
      'Option "mask" of the redact feature must be a single character',
    )
    expect(optionsError('redact', { feature: 'redact', mask: ' ' })).toContain('Option "mask"')
  })

  it('refuses options that are not an object, or that name another feature', () => {
    expect(optionsError('stats', [])).toContain('options must be an object')
    expect(optionsError('stats', 'stats')).toContain('options must be an object')
    expect(optionsError('stats', { feature: 'summary' })).toContain('"summary"')
  })

  it('applies the defaults', () => {
    const many = Array.from(
      { length: 40 },
      (_, i) => `Sentence number ${i} mentions topic${i}.`,
    ).join(' ')
    const keywords = runFeature('keywords', many, { feature: 'keywords' })
    expect(keywords.keywords).toHaveLength(10)
    expect(runFeature('summary', many, { feature: 'summary' }).count).toBe(3)
    expect(runFeature('language', TEXT, { feature: 'language' }).alternatives).toHaveLength(3)
    const redacted = runFeature('redact', TEXT, { feature: 'redact' })
    expect(redacted.counts).toEqual({ emails: 1, phones: 1, cards: 0, ips: 0 })
    expect(redacted.text).toContain('*'.repeat('a.b@example.com'.length))
  })

  it('takes missing options, or options without feature, as the defaults', () => {
    expect(runFeature('summary', TEXT, undefined).count).toBe(3)
    expect(runFeature('summary', TEXT, null).count).toBe(3)
    expect(runFeature('keywords', TEXT, { limit: 2 }).keywords).toHaveLength(2)
  })

  it('does not change the options it is given', () => {
    const options = { feature: 'redact' }
    runFeature('redact', TEXT, options)
    expect(options).toEqual({ feature: 'redact' })
  })

  it('uses the options it is given over the defaults', () => {
    expect(runFeature('summary', TEXT, { feature: 'summary', sentences: 1 }).count).toBe(1)
    expect(
      runFeature('redact', TEXT, { feature: 'redact', mask: 'x', kinds: ['phones'] }).text,
    ).toContain('call xxxxxxxxxxxxxx.')
  })

  // Linearity is proven by work counters in linearity.test.ts; these inputs check the results.
  describe('on hostile input (200 KB each)', () => {
    const size = 200_000
    const inputs: Record<string, string> = {
      letters: 'a'.repeat(size),
      dots: '.'.repeat(size),
      digits: '1'.repeat(size),
      'spaced digits': '1 '.repeat(size / 2),
      'hex and colons': '1:'.repeat(size / 2),
      'at signs': 'a@'.repeat(size / 2),
      'dotted local part': `${'ab.'.repeat(size / 3)}@`,
      'capitalised words': 'Aa '.repeat(size / 3),
      'line breaks': '\r\n'.repeat(size / 2),
      'plus signs and digits': '+1 '.repeat(size / 3),
    }
    it.each(Object.entries(inputs))(
      'handles %s quickly',
      (_name, text) => {
        for (const feature of FEATURES) {
          const result = runFeature(feature, text, { feature })
          expect(Value.Errors(FEATURE_RESULTS[feature], result)).toEqual([])
        }
      },
      30_000,
    )
  })
})
