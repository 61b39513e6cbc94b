import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { textProblem } from '@repo/service-kit'
import { Type } from 'typebox'
import { describeEvent } from '../../lib/account-events.js'
import { pageSchema, renderPage } from './page.js'
import { userOf } from './signed-in.js'

const PER_PAGE = 25
const QUERY = { page: { maxLength: 6, label: 'The page' } }
const ActivityQuery = Type.Object({}, { additionalProperties: true })

/** The activity log: the account's events, newest first, a page at a time. */
const activityPages: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/dashboard/activity',
    { schema: { ...pageSchema('Activity log'), querystring: ActivityQuery } },
    async (request, reply) => {
      const query = request.query as { page?: string }
      const invalid = textProblem(query, QUERY)
      const raw = invalid ? undefined : (query.page ?? '1')
      const page = raw !== undefined && /^[1-9][0-9]{0,5}$/.test(raw) ? Number(raw) : undefined
      const user = userOf(request)
      const { events, more } = await fastify.accountEvents.page(user.id, page ?? 1, PER_PAGE)
      return renderPage(
        request,
        reply,
        'activity',
        {
          title: 'Activity',
          error: page === undefined ? (invalid ?? 'The page is a whole number from 1.') : undefined,
          events: events.map((event) => ({ ...event, text: describeEvent(event) })),
          page: page ?? 1,
          more,
        },
        user,
        page === undefined ? 400 : 200,
      )
    },
  )
}

export default activityPages
