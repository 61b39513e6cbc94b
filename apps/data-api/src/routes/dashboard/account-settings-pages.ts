import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { HttpProblem, textProblem } from '@repo/service-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { EmailTakenError } from '../../lib/accounts.js'
import { emailProblem, normalizeEmail } from '../../lib/email.js'
import type { LoginThrottle } from '../../lib/login-throttle.js'
import { type WeakPassword, weakPassword } from '../../lib/password-strength.js'
import { hashPassword, verifyPassword } from '../../lib/passwords.js'
import { sessionIdHash } from '../../lib/sessions.js'
import { endSession, sessionToken } from '../../plugins/sessions.js'
import { formSchema, pageSchema, renderPage } from './page.js'
import { flash, userOf } from './signed-in.js'

export interface AccountSettingsOptions {
  /** Wrong passwords typed here count as failed log-ins of the account. */
  loginThrottle: LoginThrottle
}

const FIELDS = {
  current: { maxLength: 1000, label: 'The current password' },
  password: { maxLength: 1000, label: 'The password' },
  email: { maxLength: 254, label: 'The e-mail address' },
  confirm: { maxLength: 254, label: 'The confirmation' },
}

interface SettingsForm {
  current?: string
  password?: string
  email?: string
  confirm?: string
}

type Section = 'password' | 'email'

/** Account settings: change the password, change the e-mail address, delete the account. */
const accountSettingsPages: FastifyPluginAsyncTypebox<AccountSettingsOptions> = async (
  fastify,
  opts,
) => {
  const settings = (
    request: FastifyRequest,
    reply: FastifyReply,
    failed?: { section: Section; error: string; weak?: WeakPassword; email?: string },
    status = 200,
  ) =>
    renderPage(
      request,
      reply,
      'account',
      { title: 'Account settings', failed },
      userOf(request),
      status,
    )

  const deletePage = (request: FastifyRequest, reply: FastifyReply, error?: string, status = 200) =>
    renderPage(
      request,
      reply,
      'delete-account',
      { title: 'Delete account', error },
      userOf(request),
      status,
    )

  /**
   * Checks the account's password typed again, counted like a log-in attempt (so a stolen session
   * cannot guess it faster than the log-in form allows): true when it is right.
   */
  async function passwordIsRight(request: FastifyRequest, password: string): Promise<boolean> {
    const user = userOf(request)
    const wait = await opts.loginThrottle.attempt(user.email)
    if (wait > 0) {
      throw new HttpProblem(
        'RATE_LIMITED',
        'Too many wrong passwords for this account. Wait a few minutes and try again.',
        { headers: { 'retry-after': String(wait) } },
      )
    }
    const right = await verifyPassword(await fastify.accounts.passwordHash(user.id), password)
    if (right) await opts.loginThrottle.succeeded(user.email)
    return right
  }

  fastify.get('/dashboard/account', { schema: pageSchema('Account settings') }, (request, reply) =>
    settings(request, reply),
  )

  fastify.post(
    '/dashboard/account/password',
    { preHandler: fastify.csrfProtection, schema: formSchema('Change the password') },
    async (request, reply) => {
      const form = request.body as SettingsForm
      const fail = (error: string, status = 400, weak?: WeakPassword) =>
        settings(request, reply, { section: 'password', error, ...(weak ? { weak } : {}) }, status)
      const invalid = textProblem(form, FIELDS)
      if (invalid) return fail(invalid)
      if (!(await passwordIsRight(request, form.current ?? ''))) {
        return fail('Your current password is not right.')
      }
      const user = userOf(request)
      const password = form.password ?? ''
      const weak = await weakPassword(fastify.passwordStrength, password, user.email)
      if (weak) return fail(weak.message, 400, weak)
      const ended = await fastify.accounts.changePassword(
        user.id,
        await hashPassword(password),
        sessionIdHash(sessionToken(request) as string),
        request.ip,
      )
      request.log.info({ user_id: user.id, sessions_ended: ended }, 'password changed')
      await flash(
        request,
        `Your password is changed. ${ended} other session${ended === 1 ? '' : 's'} ended.`,
      )
      return reply.redirect('/dashboard/account', 303)
    },
  )

  fastify.post(
    '/dashboard/account/email',
    { preHandler: fastify.csrfProtection, schema: formSchema('Change the e-mail address') },
    async (request, reply) => {
      const form = request.body as SettingsForm
      const email = normalizeEmail(typeof form.email === 'string' ? form.email : '')
      const fail = (error: string, status = 400) =>
        settings(request, reply, { section: 'email', error, email }, status)
      const invalid = textProblem(form, FIELDS)
      if (invalid) return fail(invalid)
      const bad = emailProblem(email)
      if (bad) return fail(bad)
      const user = userOf(request)
      if (email === user.email) return fail('That is already your address.')
      if (!(await passwordIsRight(request, form.password ?? ''))) {
        return fail('Your password is not right.')
      }
      try {
        await fastify.accounts.changeEmail(
          user.id,
          email,
          sessionIdHash(sessionToken(request) as string),
          request.ip,
        )
      } catch (error) {
        if (error instanceof EmailTakenError) {
          return fail('Another account already uses this address.', 409)
        }
        throw error
      }
      // GET /api/v1/data shows the address: cached key identities carry it.
      await fastify.keyCache.evictUser(user.id)
      await flash(request, `Your e-mail address is now ${email}.`)
      return reply.redirect('/dashboard/account', 303)
    },
  )

  fastify.get(
    '/dashboard/account/delete',
    { schema: pageSchema('Confirm deleting the account') },
    (request, reply) => deletePage(request, reply),
  )

  fastify.post(
    '/dashboard/account/delete',
    { preHandler: fastify.csrfProtection, schema: formSchema('Delete the account') },
    async (request, reply) => {
      const form = request.body as SettingsForm
      const invalid = textProblem(form, FIELDS)
      if (invalid) return deletePage(request, reply, invalid, 400)
      const user = userOf(request)
      if (normalizeEmail(form.confirm ?? '') !== user.email) {
        return deletePage(request, reply, 'Type your e-mail address to confirm.', 400)
      }
      if (!(await passwordIsRight(request, form.password ?? ''))) {
        return deletePage(request, reply, 'Your password is not right.', 400)
      }
      const keyIds = await fastify.accounts.delete(user.id)
      // Every instance forgets the account's keys at once; their counters go too.
      await fastify.keyCache.evictUser(user.id)
      if (keyIds) await fastify.quota.forget(keyIds)
      request.log.info({ user_id: user.id, keys: keyIds?.length ?? 0 }, 'account deleted')
      await endSession(request, reply)
      request.account = null
      return renderPage(request, reply, 'account-deleted', { title: 'Account deleted' })
    },
  )
}

export default accountSettingsPages
