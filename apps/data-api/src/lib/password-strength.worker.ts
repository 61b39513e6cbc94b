// Runs in a worker thread (see PasswordStrength): zxcvbn-ts with its common and English
// dictionaries, built once per worker. Imports packages only, so Node runs it as TypeScript in
// tests and as the compiled JavaScript in production.
import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { adjacencyGraphs, dictionary as common } from '@zxcvbn-ts/language-common'
import { dictionary as english, translations } from '@zxcvbn-ts/language-en'

/** Characters judged: a longer password only gets stronger, and the matching time grows fast. */
export const CHECKED_LENGTH = 64

const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common, ...english },
  graphs: adjacencyGraphs,
  translations,
  maxLength: CHECKED_LENGTH,
})

export interface StrengthTask {
  password: string
  userInputs: string[]
}

export interface Strength {
  /** 0 (too guessable) to 4 (very unguessable). */
  score: number
  warning: string | null
  suggestions: string[]
}

export default function check({ password, userInputs }: StrengthTask): Strength {
  const { score, feedback } = zxcvbn.check(password, userInputs)
  return { score, warning: feedback.warning, suggestions: feedback.suggestions }
}
