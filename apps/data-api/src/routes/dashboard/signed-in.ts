import { HttpProblem } from '@repo/service-kit'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { User } from '../../lib/accounts.js'
import type { ApiKeyRow } from '../../lib/api-keys.js'
import { sessionToken } from '../../plugins/sessions.js'

// Helpers of the signed-in pages (their preHandler, in account-pages.ts, sets request.user).

export const KeyParams = Type.Object({ id: Type.String({ maxLength: 64 }) })
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The signed-in user of a page behind the session check. */
export const userOf = (request: FastifyRequest) => request.user as User

/** Sets the message the next page shows. */
export async function flash(request: FastifyRequest, message: string): Promise<void> {
  const token = sessionToken(request)
  if (token) await request.server.sessions.setFlash(token, message)
}

/**
 * One of the signed-in user's keys (`unrevoked`: revoked ones are not found). Another user's key
 * is answered exactly like a key that does not exist: 404.
 */
export async function ownKey(
  request: FastifyRequest,
  id: string,
  { unrevoked = true } = {},
): Promise<ApiKeyRow> {
  const key = UUID.test(id) ? await request.server.apiKeys.get(userOf(request).id, id) : undefined
  if (!key || (unrevoked && key.revoked_at)) {
    throw new HttpProblem('NOT_FOUND', 'There is no such key.')
  }
  return key
}
