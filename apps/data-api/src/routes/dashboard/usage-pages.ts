import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { HttpProblem, textProblem } from '@repo/service-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { addDays, daysFrom, isDay } from '../../lib/clock.js'
import { renderUsageChart } from '../../lib/usage-chart.js'
import { safeCell, toCsv } from '../../lib/usage-csv.js'
import { sumSeries } from '../../lib/usage-history.js'
import { pageSchema, renderPage } from './page.js'
import { KeyParams, ownKey, userOf } from './signed-in.js'

/** Longest range a page or a download covers (about what is kept). */
const MAX_RANGE_DAYS = 400
const DEFAULT_DAYS = 30
const QUERY = {
  from: { maxLength: 10, label: 'The first day' },
  to: { maxLength: 10, label: 'The last day' },
}
const RangeQuery = Type.Object({}, { additionalProperties: true })

interface Range {
  from: string
  to: string
}

/** The range asked for (default: the last 30 days to today), or why it is refused. */
function parseRange(query: unknown, today: string): Range | { error: string } {
  const invalid = textProblem(query, QUERY)
  if (invalid) return { error: invalid }
  const { from: rawFrom, to: rawTo } = query as { from?: string; to?: string }
  const to = rawTo || today
  const from = rawFrom || addDays(to, 1 - DEFAULT_DAYS)
  if (!isDay(from) || !isDay(to)) return { error: 'Give the days as YYYY-MM-DD.' }
  if (from > to) return { error: 'The first day must not be after the last.' }
  if (daysFrom(from, to).length > MAX_RANGE_DAYS) {
    return { error: `Choose at most ${MAX_RANGE_DAYS} days.` }
  }
  return { from, to }
}

function rangeOrThrow(query: unknown, today: string): Range {
  const range = parseRange(query, today)
  if ('error' in range) throw new HttpProblem('INVALID_REQUEST', range.error)
  return range
}

const rangeQuery = (range: Range) => `from=${range.from}&to=${range.to}`

function sendCsv(reply: FastifyReply, filename: string, csv: string) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(csv)
}

/** Usage history: charts (SVG, numbers in a table) and CSV, per key and for the account. */
const usagePages: FastifyPluginAsyncTypebox = async (fastify) => {
  const history = fastify.usageHistory

  async function show(
    request: FastifyRequest,
    reply: FastifyReply,
    keyIds: string[],
    page: { heading: string; chartId: string; csv: string; action: string },
  ) {
    const today = history.today()
    const parsed = parseRange(request.query, today)
    const range = 'error' in parsed ? { from: addDays(today, 1 - DEFAULT_DAYS), to: today } : parsed
    const series = await history.series(keyIds, range.from, range.to)
    const totals = sumSeries(series)
    const days = series.days.map((date, i) => ({ date, requests: totals[i] ?? 0 }))
    return renderPage(
      request,
      reply,
      'usage',
      {
        title: page.heading,
        heading: page.heading,
        error: 'error' in parsed ? parsed.error : undefined,
        range,
        action: page.action,
        csvUrl: `${page.csv}?${rangeQuery(range)}`,
        chart: renderUsageChart({
          id: page.chartId,
          title: `${page.heading}, requests per UTC day`,
          days,
        }),
        days,
        total: totals.reduce((sum, n) => sum + n, 0),
      },
      userOf(request),
      'error' in parsed ? 400 : 200,
    )
  }

  fastify.get(
    '/dashboard/usage',
    { schema: { ...pageSchema('Account usage'), querystring: RangeQuery } },
    async (request, reply) => {
      const keys = await fastify.apiKeys.list(userOf(request).id)
      return show(
        request,
        reply,
        keys.map((k) => k.id),
        {
          heading: 'Usage of all keys',
          chartId: 'account-usage',
          csv: '/dashboard/usage.csv',
          action: '/dashboard/usage',
        },
      )
    },
  )

  fastify.get(
    '/dashboard/keys/:id/usage',
    { schema: { ...pageSchema('Key usage'), params: KeyParams, querystring: RangeQuery } },
    async (request, reply) => {
      const key = await ownKey(request, request.params.id, { unrevoked: false })
      return show(request, reply, [key.id], {
        heading: `Usage of “${key.name}” (${key.display_prefix}…)`,
        chartId: 'key-usage',
        csv: `/dashboard/keys/${key.id}/usage.csv`,
        action: `/dashboard/keys/${key.id}/usage`,
      })
    },
  )

  fastify.get(
    '/dashboard/usage.csv',
    { schema: { ...pageSchema('Account usage as CSV'), querystring: RangeQuery } },
    async (request, reply) => {
      const range = rangeOrThrow(request.query, history.today())
      const keys = await fastify.apiKeys.list(userOf(request).id)
      const series = await history.series(
        keys.map((k) => k.id),
        range.from,
        range.to,
      )
      const rows = series.days.flatMap((date, i) =>
        keys.map((k) => [
          date,
          k.id,
          safeCell(k.name),
          k.display_prefix,
          series.perKey.get(k.id)?.[i] ?? 0,
        ]),
      )
      return sendCsv(
        reply,
        `usage-${range.from}-${range.to}.csv`,
        toCsv(['date', 'key_id', 'key_name', 'key_prefix', 'requests'], rows),
      )
    },
  )

  fastify.get(
    '/dashboard/keys/:id/usage.csv',
    { schema: { ...pageSchema('Key usage as CSV'), params: KeyParams, querystring: RangeQuery } },
    async (request, reply) => {
      const key = await ownKey(request, request.params.id, { unrevoked: false })
      const range = rangeOrThrow(request.query, history.today())
      const series = await history.series([key.id], range.from, range.to)
      const counts = series.perKey.get(key.id) ?? []
      return sendCsv(
        reply,
        `usage-${key.display_prefix}-${range.from}-${range.to}.csv`,
        toCsv(
          ['date', 'requests'],
          series.days.map((date, i) => [date, counts[i] ?? 0]),
        ),
      )
    },
  )
}

export default usagePages
