import Fastify, { type FastifyInstance } from 'fastify'

/** What the stand-in view engine renders: the view's name and the data it was given. */
export interface RenderedView {
  view: string
  data: Record<string, unknown>
}

/**
 * A bare Fastify app for the response helpers (no stores, real HTTP through `inject`): the
 * app's `publicUrl` decoration, and `reply.viewAsync` rendering the view's name and data as JSON
 * (the Eta templates are the pages plugin's business; these tests check what reaches them).
 */
export function bareApp(publicUrl = ''): FastifyInstance {
  const app = Fastify()
  app.decorate('publicUrl', publicUrl)
  app.decorateReply('viewAsync', async (view: string, data: Record<string, unknown>) =>
    JSON.stringify({ view, data } satisfies RenderedView),
  )
  return app
}

export const ACCEPT = {
  html: 'text/html',
  json: 'application/json',
  text: 'text/plain',
} as const
