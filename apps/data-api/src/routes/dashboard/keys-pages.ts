import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { type FieldRule, textProblem } from '@repo/service-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { KeyLimitError } from '../../lib/api-keys.js'
import { DAY_MS } from '../../lib/clock.js'
import { keyState } from '../../lib/key-state.js'
import { formSchema, pageSchema, planRow, renderPage } from './page.js'
import { flash, KeyParams, ownKey, userOf } from './signed-in.js'

const KEY_FORM = {
  name: { maxLength: 1000, label: 'The key name' },
  expires: { maxLength: 10, label: 'The expiry' },
}
const ROLL_FORM = { grace: { maxLength: 10, label: 'The grace period' } }
const HOUR_MS = 3_600_000

/** Expiries offered at creation: never, or a number of days. */
export const EXPIRY_CHOICES: Record<string, number | null> = {
  never: null,
  '7': 7,
  '30': 30,
  '90': 90,
}
/** How long a rolled key is still accepted. */
export const GRACE_CHOICES: Record<string, { ms: number; label: string }> = {
  none: { ms: 0, label: 'no grace: refused at once' },
  '1h': { ms: HOUR_MS, label: '1 hour' },
  '24h': { ms: 24 * HOUR_MS, label: '24 hours' },
}

const own = <T extends object>(record: T, key: string | undefined) =>
  key !== undefined && Object.hasOwn(record, key)

/** A key name as typed: 1 to 100 characters once trimmed, or why not. */
function keyName(value: string | undefined): { name: string } | { error: string } {
  const name = (value ?? '').trim()
  if (name.length === 0 || name.length > 100) {
    return { error: 'Give the key a name of 1 to 100 characters.' }
  }
  return { name }
}

/** The dashboard: plan, keys with their state and today's usage, forms. */
export async function showDashboard(
  request: FastifyRequest,
  reply: FastifyReply,
  error?: string,
  status = 200,
) {
  const fastify = request.server
  const user = userOf(request)
  const now = fastify.clock()
  const keys = (await fastify.apiKeys.list(user.id)).map((k) => ({ ...k, state: keyState(k, now) }))
  const counted = keys.filter((k) => k.state !== 'revoked' && k.state !== 'expired')
  const usage = await fastify.quota.usage(counted.map((k) => k.id))
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
      expiries: Object.keys(EXPIRY_CHOICES),
    },
    user,
    status,
  )
}

/** Shows a new key once (after creation or a roll). */
function showNewKey(
  request: FastifyRequest,
  reply: FastifyReply,
  data: { key: string; name: string; expiresAt: Date | null; rolled?: { until: Date } },
) {
  const origin = `${request.protocol}://${request.host}`
  return renderPage(
    request,
    reply,
    'key-created',
    { title: 'New key', ...data, origin },
    userOf(request),
  )
}

type KeyRow = { id: string; name: string; display_prefix: string }

/** A key form as posted: the signed-in user's key it names, its fields, what is wrong with them. */
async function keyFormPost<F>(request: FastifyRequest, fields: Record<string, FieldRule>) {
  const key = await ownKey(request, (request.params as { id: string }).id)
  const form = request.body as F
  return { key, form, invalid: textProblem(form, fields) }
}

/** A key's page (`view`), shown again with an error and its status when its form was refused. */
const keyPage =
  (view: string, title: string, extra: Record<string, unknown> = {}) =>
  (request: FastifyRequest, reply: FastifyReply, key: KeyRow, error?: string, status = 200) =>
    renderPage(request, reply, view, { title, key, error, ...extra }, userOf(request), status)
const revokeForm = keyPage('revoke', 'Revoke key')
const renameForm = keyPage('rename', 'Rename key')
const rollForm = keyPage('roll', 'Roll key', { graces: GRACE_CHOICES })

/** The dashboard and the key forms: create (with an expiry), rename, roll, revoke. */
const keysPages: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get('/dashboard', { schema: pageSchema('Dashboard') }, async (request, reply) =>
    showDashboard(request, reply),
  )

  fastify.post(
    '/dashboard/keys',
    { preHandler: fastify.csrfProtection, schema: formSchema('Create a key') },
    async (request, reply) => {
      const user = userOf(request)
      const form = request.body as { name?: string; expires?: string }
      const invalid = textProblem(form, KEY_FORM)
      if (invalid) return showDashboard(request, reply, invalid, 400)
      const named = keyName(form.name)
      if ('error' in named) return showDashboard(request, reply, named.error, 400)
      const expires = form.expires ?? 'never'
      if (!own(EXPIRY_CHOICES, expires)) {
        return showDashboard(request, reply, 'Choose an expiry: never, 7, 30 or 90 days.', 400)
      }
      const days = EXPIRY_CHOICES[expires] ?? null
      const expiresAt = days === null ? null : new Date(fastify.clock().getTime() + days * DAY_MS)
      try {
        const created = await fastify.apiKeys.create(user.id, named.name, {
          expiresAt,
          clientAddress: request.ip,
        })
        // Clears a cached "unknown key" left by anyone who tried this key before it existed.
        await fastify.keyCache.created(created.hash)
        request.log.info({ key_id: created.row.id, user_id: user.id }, 'api key created')
        return showNewKey(request, reply, { key: created.key, name: named.name, expiresAt })
      } catch (error) {
        if (error instanceof KeyLimitError) return showDashboard(request, reply, error.message, 409)
        throw error
      }
    },
  )

  // A key's confirmation or form page: revoke, rename, roll.
  const keyPages = [
    ['revoke', 'Confirm revoking a key', revokeForm],
    ['rename', 'Rename a key', renameForm],
    ['roll', 'Confirm rolling a key', rollForm],
  ] as const
  for (const [action, summary, page] of keyPages) {
    fastify.get(
      `/dashboard/keys/:id/${action}`,
      { schema: { ...pageSchema(summary), params: KeyParams } },
      async (request, reply) => page(request, reply, await ownKey(request, request.params.id)),
    )
  }
  /** A key form's POST: CSRF-checked, the key's id in the path. */
  const keyForm = (summary: string) => ({
    preHandler: fastify.csrfProtection,
    schema: { ...formSchema(summary), params: KeyParams },
  })

  fastify.post('/dashboard/keys/:id/revoke', keyForm('Revoke a key'), async (request, reply) => {
    const key = await ownKey(request, request.params.id)
    const hash = await fastify.apiKeys.revoke(userOf(request).id, key.id, request.ip)
    if (hash) await fastify.keyCache.evictKey(hash)
    request.log.info({ key_id: key.id }, 'api key revoked')
    await flash(request, `Key “${key.name}” is revoked.`)
    return reply.redirect('/dashboard', 303)
  })

  fastify.post('/dashboard/keys/:id/rename', keyForm('Rename a key'), async (request, reply) => {
    const { key, form, invalid } = await keyFormPost<{ name?: string }>(request, KEY_FORM)
    if (invalid) return renameForm(request, reply, key, invalid, 400)
    const named = keyName(form.name)
    if ('error' in named) return renameForm(request, reply, key, named.error, 400)
    const hash = await fastify.apiKeys.rename(userOf(request).id, key.id, named.name, request.ip)
    // Cached identities carry the name (GET /api/v1/data shows it): forget them everywhere.
    if (hash) await fastify.keyCache.evictKey(hash)
    await flash(request, `Key “${key.name}” is now “${named.name}”.`)
    return reply.redirect('/dashboard', 303)
  })

  fastify.post('/dashboard/keys/:id/roll', keyForm('Roll a key'), async (request, reply) => {
    const { key, form, invalid } = await keyFormPost<{ grace?: string }>(request, ROLL_FORM)
    if (invalid) return rollForm(request, reply, key, invalid, 400)
    const grace = form.grace ?? ''
    if (!own(GRACE_CHOICES, grace)) {
      return rollForm(request, reply, key, 'Choose a grace period: none, 1 hour or 24 hours.', 400)
    }
    const graceMs = GRACE_CHOICES[grace]?.ms ?? 0
    const rolled = await fastify.apiKeys.roll(userOf(request).id, key.id, graceMs, request.ip)
    if (!rolled) {
      const why = 'This key cannot be rolled: it has expired or was rolled already.'
      return rollForm(request, reply, key, why, 409)
    }
    // The old key's cached identity lacks its new expiry: forget it everywhere.
    await fastify.keyCache.evictKey(rolled.oldHash)
    await fastify.keyCache.created(rolled.hash)
    request.log.info({ key_id: rolled.row.id, rolled_from: key.id }, 'api key rolled')
    return showNewKey(request, reply, {
      key: rolled.key,
      name: rolled.row.name,
      expiresAt: rolled.row.expires_at,
      rolled: { until: rolled.oldUntil },
    })
  })
}

export default keysPages
