import { PLAN_LIMITS, PLANS, type Plan } from '@repo/contracts'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { User } from '../../lib/accounts.js'
import type { OpenSession } from '../../lib/sessions.js'
import { cookieSecurity, csrfBinding, sessionToken } from '../../plugins/sessions.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account of the dashboard pages (set by their preHandler). */
    account: OpenSession | null
  }
}

const kb = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`

/** Dashboard routes are pages for people, kept out of the API's OpenAPI document. */
export const pageSchema = (summary: string) => ({ tags: ['dashboard'], summary, hide: true })

/**
 * An HTML form's body: any fields. Handlers check the ones they read with textProblem, so a bad
 * value re-renders the form with a message instead of an error page.
 */
export const FormBody = Type.Object({}, { additionalProperties: true })
export const formSchema = (summary: string, body = FormBody) => ({ ...pageSchema(summary), body })

/** The plans as the pages describe them. */
export const PLAN_ROWS = PLANS.map((name) => ({
  name,
  daily: PLAN_LIMITS[name].dailyRequests.toLocaleString('en'),
  size: kb(PLAN_LIMITS[name].maxDataBytes),
  features: PLAN_LIMITS[name].features.join(', '),
}))

export function planRow(plan: Plan) {
  return PLAN_ROWS.find((row) => row.name === plan) as (typeof PLAN_ROWS)[number]
}

const formatter = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
})
export const fmt = (date: Date) => `${formatter.format(date)} UTC`

/**
 * Renders a dashboard page with what every page needs: a fresh CSRF token for its forms (bound
 * to the session), the signed-in user (for the header), a one-time flash message, and a warning
 * when the browser will refuse the session cookie. Pages are never cached: they show account
 * data, and one of them shows a new key.
 */
export async function renderPage(
  request: FastifyRequest,
  reply: FastifyReply,
  view: string,
  data: Record<string, unknown> & { title: string },
  user?: User,
  status = 200,
) {
  const token = sessionToken(request)
  const flash = request.account?.flash
  if (flash && token) await request.server.sessions.setFlash(token, null)
  const security = cookieSecurity(request, request.server.cookieSecureMode)
  reply.status(status).header('cache-control', 'no-store')
  return reply.viewAsync(view, {
    ...data,
    csrf: reply.generateCsrf({ userInfo: csrfBinding(request), secure: security.secure }),
    user,
    flash,
    cookieRefused: security.refused ? request.hostname : undefined,
    fmt,
    plans: PLAN_ROWS,
  })
}
