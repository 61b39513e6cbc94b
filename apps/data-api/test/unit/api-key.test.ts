import { describe, expect, it } from 'vitest'
import {
  API_KEY_PATTERN,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from '../../src/lib/api-key.js'

describe('API keys', () => {
  it('have the documented shape: sk_ + 32 random + 6 checksum base62 characters', () => {
    const { key, hash, displayPrefix: prefix } = generateApiKey()
    expect(key).toMatch(API_KEY_PATTERN)
    expect(key).toHaveLength(41)
    expect(prefix).toBe(key.slice(0, 11))
    expect(hash).toEqual(hashApiKey(key))
    expect(hash).toHaveLength(32)
  })

  it('carry at least 160 bits of randomness and never repeat', () => {
    expect(32 * Math.log2(62)).toBeGreaterThan(160)
    const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey().key))
    expect(keys.size).toBe(2000)
  })

  it('use every base62 character roughly uniformly', () => {
    const counts = new Map<string, number>()
    for (let i = 0; i < 2000; i += 1) {
      for (const c of generateApiKey().key.slice(3, 35)) counts.set(c, (counts.get(c) ?? 0) + 1)
    }
    expect(counts.size).toBe(62)
    const expected = (2000 * 32) / 62
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.2)
  })

  it('are recognised by their checksum without a database', () => {
    const { key } = generateApiKey()
    expect(isWellFormedApiKey(key)).toBe(true)
    // Any single changed character is caught.
    for (let i = 3; i < key.length; i += 1) {
      const c = key[i] === 'a' ? 'b' : 'a'
      expect(isWellFormedApiKey(key.slice(0, i) + c + key.slice(i + 1))).toBe(false)
    }
    // Swapped neighbours too.
    const swapped = key.slice(0, 5) + key[6] + key[5] + key.slice(7)
    if (swapped !== key) expect(isWellFormedApiKey(swapped)).toBe(false)
  })

  it('refuses anything that is not a key', () => {
    for (const text of [
      '',
      'sk_',
      'sk_abc',
      `pk_${'a'.repeat(38)}`,
      `sk_${'a'.repeat(39)}`,
      `sk_${'!'.repeat(38)}`,
      ' sk_x',
    ]) {
      expect(isWellFormedApiKey(text)).toBe(false)
    }
  })

  it('shows only a prefix', () => {
    expect(displayPrefix('sk_ABCDEFGHIJKLMNOP')).toBe('sk_ABCDEFGH')
  })
})
