import { createHash, randomBytes } from 'node:crypto'
import { crc32 } from 'node:zlib'

/**
 * API keys: `sk_` + 32 base62 characters of randomness (190 bits) + a 6-character base62
 * CRC-32 of them. The checksum lets us reject mistyped or made-up keys without a database
 * look-up, and the fixed shape lets secret scanners recognise a leaked key.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const RANDOM_LENGTH = 32
const CHECKSUM_LENGTH = 6
const PREFIX = 'sk_'
export const API_KEY_PATTERN = /^sk_[0-9A-Za-z]{38}$/
/** Characters of the key shown in the dashboard: `sk_` and 8 of the random part. */
const DISPLAY_LENGTH = PREFIX.length + 8

/** `value` (an unsigned 32-bit integer: exact in a double) in `length` base62 digits. */
function base62(value: number, length: number): string {
  let out = ''
  let rest = value
  for (let i = 0; i < length; i += 1) {
    out = ALPHABET[rest % 62] + out
    rest = Math.floor(rest / 62)
  }
  return out
}

function checksum(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH)
}

function randomBase62(length: number): string {
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  let out = ''
  while (out.length < length) {
    // Stryker disable next-line ArithmeticOperator: the batch size only changes how often we loop
    for (const byte of randomBytes(length * 2)) {
      // Stryker disable next-line EqualityOperator: `<= 248` biases '0' by 1/256, not measurable
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62]
    }
  }
  return out
}

export interface NewApiKey {
  key: string
  hash: Buffer
  displayPrefix: string
}

export function generateApiKey(): NewApiKey {
  const random = randomBase62(RANDOM_LENGTH)
  const key = `${PREFIX}${random}${checksum(random)}`
  return { key, hash: hashApiKey(key), displayPrefix: displayPrefix(key) }
}

/** True when `key` has the right shape and its checksum matches. */
export function isWellFormedApiKey(key: string): boolean {
  if (!API_KEY_PATTERN.test(key)) return false
  const random = key.slice(PREFIX.length, PREFIX.length + RANDOM_LENGTH)
  return key.slice(PREFIX.length + RANDOM_LENGTH) === checksum(random)
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key).digest()
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_LENGTH)
}
