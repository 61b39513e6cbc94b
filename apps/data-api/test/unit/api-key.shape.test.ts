import { describe, expect, it } from 'vitest'
import { API_KEY_PATTERN, generateApiKey, isWellFormedApiKey } from '../../src/lib/api-key.js'

// Keys issued by earlier versions (stored only as hashes, held by customers) must stay valid:
// these pin the checksum's algorithm and alphabet, not only its self-consistency.
const ISSUED = [
  'sk_X86q2RKodYrSZn8KQqouZpZwD9Kvkyov3sNIyp',
  'sk_aWX1XVsdURK613BkafVK4E8A5UXy9LZX2iHsdz',
  'sk_kalSVRIbbASGKFTpHXMCkZkisdeMCKoe38AYNz',
]

describe('API key shape', () => {
  it.each(ISSUED)('still accepts the issued key %s', (key) => {
    expect(isWellFormedApiKey(key)).toBe(true)
  })

  it('matches a whole key only: junk before or after it is refused', () => {
    const { key } = generateApiKey()
    expect(API_KEY_PATTERN.test(key)).toBe(true)
    expect(API_KEY_PATTERN.test(`x${key}`)).toBe(false)
    expect(API_KEY_PATTERN.test(`${key}x`)).toBe(false)
    expect(API_KEY_PATTERN.test(` ${key}`)).toBe(false)
    expect(API_KEY_PATTERN.test(`${key}\n`)).toBe(false)
  })

  it('requires exactly 38 base62 characters after sk_', () => {
    expect(API_KEY_PATTERN.test(`sk_${'a'.repeat(38)}`)).toBe(true)
    expect(API_KEY_PATTERN.test(`sk_${'a'.repeat(37)}`)).toBe(false)
    expect(API_KEY_PATTERN.test(`sk_${'a'.repeat(37)}-`)).toBe(false)
  })

  it('refuses a key with another prefix even when its checksum matches', () => {
    const [key] = ISSUED as [string]
    expect(isWellFormedApiKey(`pk_${key.slice(3)}`)).toBe(false)
    expect(isWellFormedApiKey(`sk-${key.slice(3)}`)).toBe(false)
  })
})
