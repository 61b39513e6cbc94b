import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { QuoteParams } from '@repo/contracts'
import { HttpProblem } from '@repo/service-kit'
import { LRUCache } from 'lru-cache'
import { etagOf, sendCacheable } from '../lib/etag.js'
import { cardPng, cardSvg } from '../lib/share-card.js'
import { parseQuoteId, type StoredQuote } from '../lib/stored-quote.js'
import { cacheable, problem } from './schemas.js'

interface Card {
  svg: string
  etag: string
  png?: Buffer
}

const image = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: { type: 'string', format: 'binary' } } },
})

/**
 * /q/:id.svg and /q/:id.png: the share card of a quote (1200×630, the Open Graph size), cached
 * like the quote. PNGs are rendered once per quote and kept (bounded by bytes).
 */
const cardRoutes: FastifyPluginAsyncTypebox<{ cacheMaxAgeSeconds: number }> = async (
  fastify,
  opts,
) => {
  const cacheControl = `public, max-age=${opts.cacheMaxAgeSeconds}`
  const cards = new LRUCache<string, Card>({
    maxSize: 32 * 1024 * 1024,
    sizeCalculation: (card) => card.svg.length + (card.png?.length ?? 0),
  })

  async function cardOf(id: string): Promise<{ key: string; card: Card }> {
    const num = parseQuoteId(id)
    const quote: StoredQuote | undefined =
      num === undefined ? undefined : await fastify.quoteStore.getByNum(num)
    if (!quote) throw new HttpProblem('NOT_FOUND', `No quote has the id ${id}.`)
    // Keyed by the quote's content (its ETag), so an edited quote gets a new card.
    const key = `${quote.id}|${quote.jsonEtag}`
    let card = cards.get(key)
    if (!card) {
      const svg = cardSvg(quote.quote, quote.author, quote.id)
      card = { svg, etag: etagOf(svg) }
      cards.set(key, card)
    }
    return { key, card }
  }

  const common = { ...cacheable, 404: problem('No quote has this id') }

  fastify.get(
    '/q/:id.svg',
    {
      schema: {
        tags: ['cards'],
        summary: 'Share card of a quote, SVG',
        operationId: 'quoteCardSvg',
        security: [],
        params: QuoteParams,
        response: { 200: image('image/svg+xml', 'The card, 1200×630'), ...common },
      },
    },
    async (request, reply) => {
      const { card } = await cardOf(request.params.id)
      reply
        .type('image/svg+xml; charset=utf-8')
        .header('cache-control', cacheControl)
        // Opened on its own, the SVG may not run or load anything.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      return sendCacheable(request, reply, card.etag, card.svg)
    },
  )

  fastify.get(
    '/q/:id.png',
    {
      schema: {
        tags: ['cards'],
        summary: 'Share card of a quote, PNG (the Open Graph image)',
        operationId: 'quoteCardPng',
        security: [],
        params: QuoteParams,
        response: { 200: image('image/png', 'The card, 1200×630'), ...common },
      },
    },
    async (request, reply) => {
      const { key, card } = await cardOf(request.params.id)
      reply.type('image/png').header('cache-control', cacheControl)
      if (!card.png) {
        card.png = cardPng(card.svg)
        // Stored again so that the cache's size counts the PNG too.
        cards.set(key, card)
      }
      return sendCacheable(request, reply, `"png-${card.etag.slice(1)}`, card.png)
    },
  )
}

export default cardRoutes
