import { PLAN_LIMITS, PLANS, type Plan } from '@repo/contracts'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { User } from '../../lib/accounts.js'

const kb = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`

/** Dashboard routes are pages for people, kept out of the API's OpenAPI document. */
export const pageSchema = (summary: string) => ({ tags: ['dashboard'], summary, hide: true })

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
 * Renders a dashboard page with what every page needs: a fresh CSRF token for its forms, the
 * signed-in user (for the header), and a one-time flash message. Pages are never cached: they
 * show account data, and one of them shows a new key.
 */
export async function renderPage(
  request: FastifyRequest,
  reply: FastifyReply,
  view: string,
  data: Record<string, unknown> & { title: string },
  user?: User,
  status = 200,
) {
  const flash = request.session.get('flash')
  if (flash) request.session.set('flash', undefined)
  reply.status(status).header('cache-control', 'no-store')
  return reply.viewAsync(view, {
    ...data,
    csrf: reply.generateCsrf(),
    user,
    flash,
    fmt,
    plans: PLAN_ROWS,
  })
}
