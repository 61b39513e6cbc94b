import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyInstance {
    /** PUBLIC_URL without a trailing slash, or '' to use each request's own origin. */
    publicUrl: string
  }
}

/** Where absolute links (share-card URLs in Open Graph tags) point. */
const publicUrlPlugin: FastifyPluginAsync<{ publicUrl: string }> = async (fastify, opts) => {
  fastify.decorate('publicUrl', opts.publicUrl.replace(/\/+$/, ''))
}

export default fp(publicUrlPlugin, { name: 'public-url', fastify: '5.x' })
