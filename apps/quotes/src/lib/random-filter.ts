import type { RandomQuery } from '@repo/contracts'
import { HttpProblem, textProblem } from '@repo/service-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { RandomFilter } from './catalog.js'
import { sendQuote } from './respond.js'

// Stryker disable next-line ObjectLiteral: the route's schema refuses longer values before the handler runs
const FIELDS = { author: { maxLength: 100 }, tag: { maxLength: 100 } }

export function hasFilter(query: RandomQuery): boolean {
  return (
    query.author !== undefined ||
    query.tag !== undefined ||
    query.minLength !== undefined ||
    query.maxLength !== undefined
  )
}

/** What the filters ask for, in words, for the 404. */
function describe(query: RandomQuery): string {
  const parts: string[] = []
  if (query.author !== undefined) parts.push(`author "${query.author}"`)
  if (query.tag !== undefined) parts.push(`tag "${query.tag}"`)
  if (query.minLength !== undefined) parts.push(`at least ${query.minLength} characters`)
  if (query.maxLength !== undefined) parts.push(`at most ${query.maxLength} characters`)
  return parts.join(', ')
}

/** The query as a catalog filter: undefined when an author or tag slug is unknown. */
function toFilter(request: FastifyRequest, query: RandomQuery): RandomFilter | undefined {
  const { catalog } = request.server
  const filter: RandomFilter = {}
  if (query.author !== undefined) {
    filter.author = catalog.author(query.author)
    if (!filter.author) return undefined
  }
  if (query.tag !== undefined) {
    filter.tag = catalog.tag(query.tag)
    if (!filter.tag) return undefined
  }
  if (query.minLength !== undefined) filter.minLength = query.minLength
  if (query.maxLength !== undefined) filter.maxLength = query.maxLength
  return filter
}

/** "Another one" on the page keeps the filters. */
function anotherHref(query: RandomQuery): string {
  const params = new URLSearchParams()
  // Only the parameters given are in the parsed query.
  for (const [name, value] of Object.entries(query)) params.set(name, String(value))
  return `/?${params.toString()}`
}

/**
 * `GET /api?author=&tag=&minLength=&maxLength=`: uniform over the quotes matching every filter
 * (an O(log n) pick in the catalog's in-memory indexes), 404 when none does.
 */
export async function sendFilteredRandom(
  request: FastifyRequest,
  reply: FastifyReply,
  query: RandomQuery,
): Promise<FastifyReply> {
  const invalid = textProblem(request.query, FIELDS)
  if (invalid) throw new HttpProblem('INVALID_REQUEST', invalid)
  if ((query.minLength ?? 0) > (query.maxLength ?? Number.MAX_SAFE_INTEGER)) {
    throw new HttpProblem('INVALID_REQUEST', 'minLength must not be greater than maxLength.')
  }
  await request.server.catalog.whenReady()
  const filter = toFilter(request, query)
  const num = filter && request.server.catalog.pick(filter)
  // Stryker disable next-line ConditionalExpression: no quote has no id either (the same 404)
  const quote = num === undefined ? undefined : await request.server.quoteStore.getByNum(num)
  if (!quote) throw new HttpProblem('NOT_FOUND', `No quote matches: ${describe(query)}.`)
  return sendQuote(request, reply, quote, false, { anotherHref: anotherHref(query) })
}
