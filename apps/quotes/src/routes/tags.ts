import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { type TagsResponse, TagsResponse as TagsResponseSchema } from '@repo/contracts'
import { sendNegotiated } from '../lib/respond.js'
import { cacheable, negotiated } from './schemas.js'

/** /api/tags and /tags: every tag with its slug and quote count, most used first. */
const tagRoutes: FastifyPluginAsyncTypebox<{ cacheMaxAgeSeconds: number }> = async (
  fastify,
  opts,
) => {
  const cacheControl = `public, max-age=${opts.cacheMaxAgeSeconds}`
  for (const url of ['/api/tags', '/tags']) {
    fastify.get(
      url,
      {
        schema: {
          tags: ['tags'],
          summary: 'Tags with their quote counts',
          description:
            'Tags come from the quotable source (fortunes have none). Filter the random quote ' +
            'with `GET /api?tag={slug}`.',
          operationId: url === '/api/tags' ? 'listTags' : 'tagsPage',
          security: [],
          hide: url !== '/api/tags',
          response: {
            200: negotiated('Tags: JSON, `slug<TAB>count` lines, or a page', TagsResponseSchema),
            ...cacheable,
          },
        },
      },
      async (request, reply) => {
        await fastify.catalog.whenReady()
        const tags = fastify.catalog.tags()
        const results = () =>
          tags.map((t) => ({ slug: t.slug, name: t.name, quote_count: t.count }))
        reply.header('cache-control', cacheControl)
        return sendNegotiated(request, reply, {
          view: 'tags',
          data: () => ({ title: 'Tags', tags: results() }),
          json: (): TagsResponse => ({ results: results(), total_tags: tags.length, status: 200 }),
          text: () => tags.map((t) => `${t.slug}\t${t.count}\n`).join(''),
        })
      },
    )
  }
}

export default tagRoutes
