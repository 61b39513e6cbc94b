import { Piscina } from 'piscina'
import type { Strength, StrengthTask } from './password-strength.worker.js'
import { passwordLengthProblem } from './passwords.js'

export type { Strength }

/** Scores below this are refused. */
export const MIN_SCORE = 3

export interface PasswordStrengthOptions {
  /** Longest a check may take before it is given up (the worker is then replaced). */
  timeoutMs?: number
  /** How long an idle worker (and its dictionaries) is kept. */
  idleTimeoutMs?: number
}

/**
 * How long the worker and its dictionaries (about 90 MB of RSS once checks have run) outlive the
 * last check: a burst of sign-ups shares one load (about half a second of CPU), and the memory is
 * not held through the quiet time between bursts. The data-api benchmark's `GET` under load
 * (feature threads not started) measured 258 MB of peak RSS with the worker its sign-ups had
 * started still alive (it was kept a minute), and 175-186 MB once it had gone.
 */
const IDLE_TIMEOUT_MS = 10_000

export class StrengthTimeoutError extends Error {
  override name = 'StrengthTimeoutError'
}

// The worker is the compiled .js next to this file, or the .ts source when tests run the source.
const WORKER = new URL(
  // Stryker disable next-line StringLiteral: unit tests run the source; the compiled path is run by the e2e suite and the images
  `./password-strength.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
).href

/**
 * Password strength with zxcvbn-ts, off the event loop: its dictionaries take about a second and
 * 100 MB to load and a hostile password can take hundreds of milliseconds to judge, so checks
 * run in one worker thread, started at the first check (nothing is loaded until someone signs up
 * or changes a password) and let go after `idleTimeoutMs` without checks (IDLE_TIMEOUT_MS).
 */
export class PasswordStrength {
  private pool: Piscina<StrengthTask, Strength> | undefined
  private closed = false

  constructor(private readonly opts: PasswordStrengthOptions = {}) {}

  async check(password: string, userInputs: string[]): Promise<Strength> {
    // A destroyed pool would leave the check pending for ever.
    if (this.closed) throw new Error('the password strength checker is closed')
    this.pool ??= new Piscina<StrengthTask, Strength>({
      filename: WORKER,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: this.opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
    })
    await this.started(this.pool)
    try {
      return await this.pool.run(
        { password, userInputs },
        { signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000) },
      )
    } catch (error) {
      if ((error as Error).name === 'AbortError') {
        throw new StrengthTimeoutError('the password strength check took too long')
      }
      throw error
    }
  }

  private starting: Promise<unknown> | undefined

  /**
   * The worker (started at the first check, again after it idled out) has loaded the
   * dictionaries: the time budget is for judging a password, not for a slow start on a busy
   * machine, which would otherwise tell the user to pick a simpler password.
   */
  private async started(pool: Piscina<StrengthTask, Strength>): Promise<void> {
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: a needless warm-up costs one ~1 ms check, no answer changes
    if (pool.threads.length > 0 && !this.starting) return
    // Stryker disable next-line StringLiteral,ArrayDeclaration: any password warms the dictionaries up
    this.starting ??= pool.run({ password: 'warm-up', userInputs: [] }).finally(() => {
      this.starting = undefined
    })
    await this.starting
  }

  async close(): Promise<void> {
    this.closed = true
    await this.pool?.destroy()
  }
}

/** What zxcvbn may use against a password: the e-mail address and its parts. */
export function userInputsOf(email: string): string[] {
  const [local = '', domain = ''] = email.split('@')
  return [email, local, ...local.split(/[._+-]/), domain.split('.')[0] ?? ''].filter(
    (part) => part.length >= 3,
  )
}

export interface WeakPassword {
  message: string
  /** zxcvbn's suggestions, shown under the message. */
  suggestions: string[]
}

/**
 * Why a new password is refused (too short or long, or zxcvbn scores it below MIN_SCORE, with its
 * warning and suggestions), or undefined when it will do. `email` is the account's address: a
 * password built from it is weak.
 */
export async function weakPassword(
  strength: PasswordStrength,
  password: string,
  email: string,
): Promise<WeakPassword | undefined> {
  const length = passwordLengthProblem(password)
  if (length) return { message: `That password is too weak. ${length}`, suggestions: [] }
  let judged: Strength
  try {
    judged = await strength.check(password, userInputsOf(email))
  } catch (error) {
    if (!(error instanceof StrengthTimeoutError)) throw error
    return {
      message: 'This password took too long to check; choose a simpler one.',
      suggestions: [],
    }
  }
  if (judged.score >= MIN_SCORE) return undefined
  const warning = judged.warning ? ` ${judged.warning}` : ''
  return {
    message: `That password is too weak: it would be easy to guess.${warning}`,
    suggestions: judged.suggestions,
  }
}
