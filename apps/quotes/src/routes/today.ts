import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { TodayResponse } from '@repo/contracts'
import { HttpProblem } from '@repo/service-kit'
import { sendQuote } from '../lib/respond.js'
import { nextUtcMidnight, QuoteOfTheDay, utcDay } from '../lib/today.js'
import { cacheable, negotiated, problem } from './schemas.js'

export interface TodayRoutesOptions {
  /** The clock (tests move it); the wall clock by default. */
  now?: () => Date
}

/** /api/today and /today: the same quote for everyone during a UTC day. */
const todayRoutes: FastifyPluginAsyncTypebox<TodayRoutesOptions> = async (fastify, opts) => {
  const now = opts.now ?? (() => new Date())
  const today = new QuoteOfTheDay(fastify.pg, fastify.quoteStore)
  for (const url of ['/api/today', '/today']) {
    fastify.get(
      url,
      {
        schema: {
          tags: ['quotes'],
          summary: 'The quote of the day',
          description:
            'Drawn once per UTC day, the same for everyone that day. Cacheable until the next ' +
            'UTC midnight: `Cache-Control: max-age` and `Expires` say when.',
          operationId: url === '/api/today' ? 'quoteOfTheDay' : 'quoteOfTheDayPage',
          security: [],
          hide: url !== '/api/today',
          response: {
            200: negotiated(
              'The quote of the day: JSON with its date, its text, or a page',
              TodayResponse,
            ),
            ...cacheable,
            503: problem('There are no quotes yet'),
          },
        },
      },
      async (request, reply) => {
        const at = now()
        const day = utcDay(at)
        let num = await today.num(day)
        let quote = num === undefined ? undefined : await fastify.quoteStore.getByNum(num)
        if (num !== undefined && !quote) {
          today.forget()
          num = await today.num(day)
          quote = num === undefined ? undefined : await fastify.quoteStore.getByNum(num)
        }
        if (!quote) throw new HttpProblem('SERVICE_UNAVAILABLE', 'There are no quotes yet.')
        const expires = nextUtcMidnight(at)
        const seconds = Math.max(0, Math.floor((expires.getTime() - at.getTime()) / 1000))
        reply
          .header('cache-control', `public, max-age=${seconds}`)
          .header('expires', expires.toUTCString())
        return sendQuote(request, reply, quote, true, {
          heading: `Quote of the day, ${day}`,
          headingVisible: true,
          json: `${quote.itemJson.slice(0, -1)},"date":"${day}","status":200}`,
        })
      },
    )
  }
}

export default todayRoutes
