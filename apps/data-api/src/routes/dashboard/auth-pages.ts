import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PLANS, type Plan } from '@repo/contracts'
import { HttpProblem, textProblem } from '@repo/service-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { EmailTakenError } from '../../lib/accounts.js'
import { emailProblem, normalizeEmail } from '../../lib/email.js'
import type { LoginThrottle } from '../../lib/login-throttle.js'
import { weakPassword } from '../../lib/password-strength.js'
import { hashPassword, verifyPassword } from '../../lib/passwords.js'
import { endSession, startSession } from '../../plugins/sessions.js'
import { formSchema, pageSchema, renderPage } from './page.js'

export interface AuthPagesOptions {
  perAddress: number
  /** Log-in attempts per account (shared with the account settings' password checks). */
  loginThrottle: LoginThrottle
}

/** The fields of the sign-up and log-in forms (checked before anything else reads them). */
const CREDENTIALS = {
  email: { maxLength: 254, label: 'The e-mail address' },
  password: { maxLength: 1000, label: 'The password' },
  plan: { maxLength: 20, label: 'The plan' },
}
/** The window of the sign-up, log-in and per-account throttles. */
export const AUTH_WINDOW_MS = 15 * 60 * 1000

interface Credentials {
  email?: string
  password?: string
  plan?: string
}

/** A form page shown again: the error, its status and the fields typed so far. */
const formAgain =
  (request: FastifyRequest, reply: FastifyReply, view: string, title: string) =>
  (error: string, status: number, fields: Record<string, unknown> = {}) =>
    renderPage(request, reply, view, { title, error, ...fields }, undefined, status)

/**
 * A credentials form as posted: its fields, the e-mail address normalised, what is wrong with
 * the fields (too long, repeated), and how to show the form again.
 */
function credentialsOf(request: FastifyRequest, reply: FastifyReply, view: string, title: string) {
  const form = request.body as Credentials
  const invalid = textProblem(form, CREDENTIALS)
  return {
    form,
    again: formAgain(request, reply, view, title),
    invalid,
    // Read only once the fields are known to be single strings.
    email: invalid ? '' : normalizeEmail(form.email ?? ''),
  }
}

/** Sign-up, log-in and log-out, throttled per address and (log-in) per account. */
const authPages: FastifyPluginAsyncTypebox<AuthPagesOptions> = async (fastify, opts) => {
  const tooMany = (what: string, seconds?: number) =>
    new HttpProblem('RATE_LIMITED', `Too many ${what}. Wait a few minutes and try again.`, {
      ...(seconds ? { headers: { 'retry-after': String(seconds) } } : {}),
    })
  const perAddress = {
    rateLimit: {
      max: opts.perAddress,
      timeWindow: AUTH_WINDOW_MS,
      errorResponseBuilder: () => tooMany('attempts from your address'),
    },
  }
  const loginThrottle = opts.loginThrottle

  for (const [view, title] of [
    ['signup', 'Sign up'],
    ['login', 'Log in'],
  ] as const) {
    fastify.get(`/${view}`, { schema: pageSchema(`${title} form`) }, async (request, reply) =>
      renderPage(request, reply, view, { title }),
    )
  }
  /** A credentials form's POST: throttled per address, CSRF-checked. */
  const credentialsPost = (summary: string) => ({
    config: perAddress,
    preHandler: fastify.csrfProtection,
    schema: formSchema(summary),
  })

  fastify.post('/signup', credentialsPost('Sign up'), async (request, reply) => {
    const { form, again, invalid, email } = credentialsOf(request, reply, 'signup', 'Sign up')
    if (invalid) return again(invalid, 400)
    const password = form.password ?? ''
    const plan = (form.plan ?? 'FREE') as Plan
    const badEmail = emailProblem(email)
    if (badEmail) return again(badEmail, 400, { email, plan })
    if (!PLANS.includes(plan)) return again('Choose one of the plans.', 400, { email })
    const weak = await weakPassword(fastify.passwordStrength, password, email)
    if (weak) return again(weak.message, 400, { email, plan, suggestions: weak.suggestions })
    try {
      const user = await fastify.accounts.create(
        email,
        await hashPassword(password),
        plan,
        request.ip,
      )
      await startSession(
        request,
        reply,
        user.id,
        `Welcome! You are on the ${plan} plan. Create a key to start.`,
      )
      return reply.redirect('/dashboard', 303)
    } catch (error) {
      if (error instanceof EmailTakenError) {
        return again('An account with this e-mail already exists. Log in instead.', 409, {
          email,
          plan,
        })
      }
      throw error
    }
  })

  fastify.post('/login', credentialsPost('Log in'), async (request, reply) => {
    const { form, again, invalid, email } = credentialsOf(request, reply, 'login', 'Log in')
    if (invalid) return again(invalid, 400)
    // Counted before the password is hashed: guesses past the limit cost nothing.
    const wait = await loginThrottle.attempt(email)
    if (wait > 0) throw tooMany('log-in attempts for this account', wait)
    const user = email ? await fastify.accounts.findByEmail(email) : undefined
    // Verify even for unknown addresses: the answer takes as long either way.
    const valid = await verifyPassword(user?.password_hash, form.password ?? '')
    if (!user || !valid) {
      // The account's holder sees failed attempts in their activity log.
      if (user) await fastify.accountEvents.record(user.id, 'sign_in_failed', request.ip)
      return again('Wrong e-mail or password.', 401, { email })
    }
    await loginThrottle.succeeded(email)
    if (user.disabled_at) {
      return again(
        'This account has been disabled by an administrator. Contact support to have it enabled.',
        403,
        { email },
      )
    }
    await fastify.accountEvents.record(user.id, 'signed_in', request.ip)
    await startSession(request, reply, user.id)
    return reply.redirect('/dashboard', 303)
  })

  fastify.post(
    '/logout',
    { preHandler: fastify.csrfProtection, schema: formSchema('Log out') },
    async (request, reply) => {
      await endSession(request, reply)
      return reply.redirect('/login', 303)
    },
  )
}

export default authPages
