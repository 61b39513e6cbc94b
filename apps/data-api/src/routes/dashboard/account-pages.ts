import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PLAN_LIMITS, PLANS, type Plan } from '@repo/contracts'
import { HttpProblem, textProblem } from '@repo/service-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { User } from '../../lib/accounts.js'
import { hashApiKey } from '../../lib/api-key.js'
import { KeyLimitError } from '../../lib/api-keys.js'
import { endSession, sessionToken } from '../../plugins/sessions.js'
import { formSchema, pageSchema, planRow, renderPage } from './page.js'

const KeyParams = Type.Object({ id: Type.String({ maxLength: 64 }) })
const KEY_FORM = { name: { maxLength: 1000, label: 'The key name' } }
const PLAN_FORM = { plan: { maxLength: 20, label: 'The plan' } }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null
  }
}

/** The signed-in pages: plan, keys (create, list with today's usage, revoke). */
const accountPages: FastifyPluginAsyncTypebox = async (fastify) => {
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

  /** Sets the message the next page shows. */
  const flash = async (request: FastifyRequest, message: string) => {
    const token = sessionToken(request)
    if (token) await fastify.sessions.setFlash(token, message)
  }

  async function showDashboard(
    request: FastifyRequest,
    reply: FastifyReply,
    error?: string,
    status = 200,
  ) {
    const user = request.user as User
    const keys = await fastify.apiKeys.list(user.id)
    const usage = await fastify.quota.usage(keys.filter((k) => !k.revoked_at).map((k) => k.id))
    return renderPage(
      request,
      reply,
      'dashboard',
      {
        title: 'Dashboard',
        error,
        limits: planRow(user.plan),
        keys: keys.map((k) => ({ ...k, used: usage.get(k.id) ?? 0 })),
        maxKeys: fastify.apiKeys.maxActive,
      },
      user,
      status,
    )
  }

  fastify.get('/dashboard', { schema: pageSchema('Dashboard') }, async (request, reply) =>
    showDashboard(request, reply),
  )

  fastify.post(
    '/dashboard/keys',
    { preHandler: fastify.csrfProtection, schema: formSchema('Create a key') },
    async (request, reply) => {
      const user = request.user as User
      const form = request.body as { name?: string }
      const invalid = textProblem(form, KEY_FORM)
      if (invalid) return showDashboard(request, reply, invalid, 400)
      const name = (form.name ?? '').trim()
      if (name.length === 0 || name.length > 100) {
        return showDashboard(request, reply, 'Give the key a name of 1 to 100 characters.', 400)
      }
      try {
        const created = await fastify.apiKeys.create(user.id, name)
        // Clears a cached "unknown key" left by anyone who tried this key before it existed.
        await fastify.keyCache.created(hashApiKey(created.key))
        request.log.info({ key_id: created.row.id, user_id: user.id }, 'api key created')
        const origin = `${request.protocol}://${request.host}`
        return renderPage(
          request,
          reply,
          'key-created',
          { title: 'New key', key: created.key, name, origin },
          user,
        )
      } catch (error) {
        if (error instanceof KeyLimitError) return showDashboard(request, reply, error.message, 409)
        throw error
      }
    },
  )

  async function ownKey(request: FastifyRequest, id: string) {
    const user = request.user as User
    const key = UUID.test(id) ? await fastify.apiKeys.get(user.id, id) : undefined
    // Another user's key is answered exactly like a key that does not exist.
    if (!key || key.revoked_at) throw new HttpProblem('NOT_FOUND', 'There is no such active key.')
    return key
  }

  fastify.get(
    '/dashboard/keys/:id/revoke',
    { schema: { ...pageSchema('Confirm revoking a key'), params: KeyParams } },
    async (request, reply) => {
      const key = await ownKey(request, request.params.id)
      return renderPage(
        request,
        reply,
        'revoke',
        { title: 'Revoke key', key },
        request.user as User,
      )
    },
  )

  fastify.post(
    '/dashboard/keys/:id/revoke',
    {
      preHandler: fastify.csrfProtection,
      schema: { ...formSchema('Revoke a key'), params: KeyParams },
    },
    async (request, reply) => {
      const key = await ownKey(request, request.params.id)
      const hash = await fastify.apiKeys.revoke((request.user as User).id, key.id)
      if (hash) await fastify.keyCache.evictKey(hash)
      request.log.info({ key_id: key.id }, 'api key revoked')
      await flash(request, `Key “${key.name}” is revoked.`)
      return reply.redirect('/dashboard', 303)
    },
  )

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
      const userId = (request.user as User).id
      if (await fastify.accounts.changePlan(userId, plan)) {
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
