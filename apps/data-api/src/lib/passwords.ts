import { type Algorithm, hash, verify } from '@node-rs/argon2'

// argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane).
// (Algorithm is a const enum, which isolated modules cannot read: 2 is Argon2id.)
const OPTIONS = {
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
}

export const PASSWORD_MIN_LENGTH = 10
/** Longer passwords add nothing but hashing cost an attacker could exploit. */
export const PASSWORD_MAX_LENGTH = 200

/**
 * Why a password's length is refused, or undefined. (How guessable it is is zxcvbn's to say: see
 * PasswordStrength.)
 */
export function passwordLengthProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `Use at least ${PASSWORD_MIN_LENGTH} characters.`
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `Use at most ${PASSWORD_MAX_LENGTH} characters.`
  }
  return undefined
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS)
}

// A real hash of a random string: verifying against it when the e-mail is unknown takes as long
// as a real check, so response times do not reveal which addresses have accounts.
const DUMMY_HASH = hash(`dummy-${Math.random()}`, OPTIONS)

export async function verifyPassword(
  stored: string | undefined,
  password: string,
): Promise<boolean> {
  if (password.length > PASSWORD_MAX_LENGTH) return false
  try {
    return await verify(stored ?? (await DUMMY_HASH), password)
  } catch {
    return false
  }
}
