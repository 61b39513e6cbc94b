import { randomBytes } from 'node:crypto'
import { crc32 } from 'node:zlib'

// The documented key shape (README, "Keys"): `sk_` + 32 base62 characters + a 6-character
// base62 CRC-32 of those 32 characters.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

function base62(value: bigint, length: number): string {
  let out = ''
  let rest = value
  for (let i = 0; i < length; i += 1) {
    out = ALPHABET[Number(rest % 62n)] + out
    rest /= 62n
  }
  return out
}

function keyChecksum(random: string): string {
  return base62(BigInt(crc32(random)), 6)
}

/** True when the key has the documented shape and its checksum matches. */
export function isWellFormedKey(key: string): boolean {
  const match = /^sk_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/.exec(key)
  return match !== null && keyChecksum(match[1] as string) === match[2]
}

/** A well-formed key (right shape, right checksum) that no account has. */
export function madeUpKey(): string {
  let random = ''
  while (random.length < 32) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && random.length < 32) random += ALPHABET[byte % 62]
    }
  }
  return `sk_${random}${keyChecksum(random)}`
}
