import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PLAN_LIMITS, PLANS, type Plan } from '@repo/contracts'
import { textProblem } from '@repo/service-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { User } from '../../lib/accounts.js'
import type { LoginThrottle } from '../../lib/login-throttle.js'
import { endSession, sessionToken } from '../../plugins/sessions.js'
import accountSettingsPages from './account-settings-pages.js'
import activityPages from './activity-pages.js'
import keysPages, { showDashboard } from './keys-pages.js'
import { formSchema } from './page.js'
import { flash, userOf } from './signed-in.js'
import usagePages from './usage-pages.js'

const PLAN_FORM = { plan: { maxLength: 20, label: 'The plan' } }

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null
  }
}

export interface AccountPagesOptions {
  loginThrottle: LoginThrottle
}

/** The signed-in pages: plan here; keys, usage, settings and activity in their own files. */
const accountPages: FastifyPluginAsyncTypebox<AccountPagesOptions> = async (fastify, opts) => {
  fastify.decorateRequest('user', null)
  fastify.decorateRequest('account', null)

  // Every page here needs a live session (one query: the session and its user); others are sent
  // to log in, and a cookie of an ended session is cleared.
  fastify.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = sessionToken(request)
    const account = token ? await fastify.sessions.find(token) : undefined
    if (!account) {
      await endSession(request, reply)
      return reply.redirect('/login', 303)
    }
    request.account = account
    request.user = account.user
  })

  await fastify.register(keysPages)
  await fastify.register(usagePages)
  await fastify.register(accountSettingsPages, { loginThrottle: opts.loginThrottle })
  await fastify.register(activityPages)

  fastify.post(
    '/dashboard/plan',
    { preHandler: fastify.csrfProtection, schema: formSchema('Change plan') },
    async (request, reply) => {
      const form = request.body as { plan?: string }
      const invalid = textProblem(form, PLAN_FORM)
      if (invalid) return showDashboard(request, reply, invalid, 400)
      const plan = form.plan as Plan
      if (!PLANS.includes(plan))
        return showDashboard(request, reply, 'Choose one of the plans.', 400)
      const userId = userOf(request).id
      if (await fastify.accounts.changePlan(userId, plan, request.ip)) {
        // Cached keys carry the plan: drop them everywhere. A plan change is an account change:
        // every other session of the account ends (this one goes on).
        await fastify.keyCache.evictUser(userId)
        await fastify.sessions.endOthers(userId, sessionToken(request) as string)
      }
      await flash(
        request,
        `You are now on the ${plan} plan: ${PLAN_LIMITS[plan].dailyRequests.toLocaleString('en')} requests per key per day.`,
      )
      return reply.redirect('/dashboard', 303)
    },
  )
}

export default accountPages
