/**
 * E-mail addresses as the service compares them, everywhere (sign-up, log-in, throttles, admin):
 * trimmed, in Unicode normal form C, lower-cased. Stored in this form, so look-ups are exact.
 */
export function normalizeEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase()
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/

/** Why an (already normalised) address is refused, or undefined. */
export function emailProblem(email: string): string | undefined {
  if (!EMAIL.test(email) || email.length > 254) return 'Enter a valid e-mail address.'
  return undefined
}
