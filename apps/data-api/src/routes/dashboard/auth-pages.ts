import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PLANS, type Plan } from '@repo/contracts'
import { HttpProblem } from '@repo/service-kit'
import { Type } from 'typebox'
import { EmailTakenError } from '../../lib/accounts.js'
import { LoginThrottle } from '../../lib/login-throttle.js'
import { hashPassword, passwordProblem, verifyPassword } from '../../lib/passwords.js'
import { pageSchema, renderPage } from './page.js'

export interface AuthPagesOptions {
  perAddress: number
  perAccount: number
}

// Loose on purpose: the handlers check the values and answer with the form and a message,
// which a schema error page could not do. Lengths are capped so nothing huge is processed.
const Credentials = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 1000 })),
  password: Type.Optional(Type.String({ maxLength: 1000 })),
  plan: Type.Optional(Type.String({ maxLength: 20 })),
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
})

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/
const WINDOW = 15 * 60 * 1000

/** Sign-up, log-in and log-out, throttled per address and (log-in) per account. */
const authPages: FastifyPluginAsyncTypebox<AuthPagesOptions> = async (fastify, opts) => {
  const tooMany = (what: string) => () =>
    new HttpProblem('RATE_LIMITED', `Too many ${what}. Wait a few minutes and try again.`)
  const perAddress = {
    rateLimit: {
      max: opts.perAddress,
      timeWindow: WINDOW,
      errorResponseBuilder: tooMany('attempts from your address'),
    },
  }
  const loginThrottle = new LoginThrottle(fastify.redis, opts.perAccount, WINDOW / 1000)

  fastify.get('/signup', { schema: pageSchema('Sign-up form') }, async (request, reply) =>
    renderPage(request, reply, 'signup', { title: 'Sign up' }),
  )

  fastify.post(
    '/signup',
    {
      config: perAddress,
      preHandler: fastify.csrfProtection,
      schema: { ...pageSchema('Sign up'), body: Credentials },
    },
    async (request, reply) => {
      const email = (request.body.email ?? '').trim()
      const password = request.body.password ?? ''
      const plan = (request.body.plan ?? 'FREE') as Plan
      const again = (error: string, status: number) =>
        renderPage(
          request,
          reply,
          'signup',
          { title: 'Sign up', error, email, plan },
          undefined,
          status,
        )
      if (!EMAIL.test(email) || email.length > 254)
        return again('Enter a valid e-mail address.', 400)
      if (!PLANS.includes(plan)) return again('Choose one of the plans.', 400)
      const weak = passwordProblem(password, email)
      if (weak) return again(`That password is too weak. ${weak}`, 400)
      try {
        const user = await fastify.accounts.create(email, await hashPassword(password), plan)
        request.session.set('userId', user.id)
        request.session.set('flash', `Welcome! You are on the ${plan} plan. Create a key to start.`)
        return reply.redirect('/dashboard', 303)
      } catch (error) {
        if (error instanceof EmailTakenError) {
          return again('An account with this e-mail already exists. Log in instead.', 409)
        }
        throw error
      }
    },
  )

  fastify.get('/login', { schema: pageSchema('Log-in form') }, async (request, reply) =>
    renderPage(request, reply, 'login', { title: 'Log in' }),
  )

  fastify.post(
    '/login',
    {
      config: perAddress,
      preHandler: fastify.csrfProtection,
      schema: { ...pageSchema('Log in'), body: Credentials },
    },
    async (request, reply) => {
      const email = (request.body.email ?? '').trim()
      if ((await loginThrottle.blockedFor(email)) > 0)
        throw tooMany('failed log-ins for this account')()
      const user = email ? await fastify.accounts.findByEmail(email) : undefined
      // Verify even for unknown addresses: the answer takes as long either way.
      const valid = await verifyPassword(user?.password_hash, request.body.password ?? '')
      if (!user || !valid) {
        await loginThrottle.failed(email)
        return renderPage(
          request,
          reply,
          'login',
          { title: 'Log in', error: 'Wrong e-mail or password.', email },
          undefined,
          401,
        )
      }
      await loginThrottle.succeeded(email)
      request.session.set('userId', user.id)
      return reply.redirect('/dashboard', 303)
    },
  )

  fastify.post(
    '/logout',
    { preHandler: fastify.csrfProtection, schema: { ...pageSchema('Log out'), body: Credentials } },
    async (request, reply) => {
      request.session.delete()
      return reply.redirect('/login', 303)
    },
  )
}

export default authPages
