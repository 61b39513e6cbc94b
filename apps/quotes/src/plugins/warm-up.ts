import { randomInt } from 'node:crypto'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { QuoteStore } from '../lib/quote-store.js'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Settles (never rejects) once the start-up warm-up has finished or been cut short by a
     * close: the catalog's first load and the search warm-up (see their plugins), then the
     * warm-up requests. The `catalog` readiness check waits for it.
     */
    warmedUp: () => Promise<void>
  }
}

/** Who the warm-up requests say they are (the access log and the client digest name them). */
export const WARM_UP_AGENT = 'quotes-warm-up'

/**
 * A phrase no quote holds, and not one of QuoteStore's warm-up terms (whose results it caches),
 * so that the warm-up's search reaches Postgres.
 */
export const WARM_UP_SEARCH = 'vkqw qjxz'

/**
 * Where the warm-up requests come from: an address of 0.0.0.0/8 ("this network"), which no
 * client can connect from, drawn per process, so that each replica counts its own requests under
 * the per-client ceiling (a shared one would run out during a rolling restart). Behind proxies,
 * only a client that TRUST_PROXY trusts could claim it in X-Forwarded-For.
 */
function warmUpAddress(): string {
  return `0.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(255)}`
}

export interface WarmUpRequest {
  url: string
  accept: string
}

/**
 * One request of each kind the service serves most: a search (which reads Postgres) as JSON,
 * text and its HTML page; with quotes to show, a random quote as JSON and text, one by id, and
 * the home page. V8 compiles the code of each (routing, hooks, the per-client ceiling,
 * negotiation, serializers, templates) the first time it runs: at a million quotes the first
 * search after a start took 5.4-12.1 ms in the service against 1.4-2.0 ms for the next ones
 * (four starts), and 1.7-2.9 ms once these had run. The search also runs on the connection the
 * pool hands out next (it keeps the last released on top), whose Postgres backend then has the
 * search's relations and functions in its caches.
 */
export function warmUpRequests(store: Pick<QuoteStore, 'idAt'>): WarmUpRequest[] {
  const search = `search?term=${encodeURIComponent(WARM_UP_SEARCH)}`
  const requests: WarmUpRequest[] = [
    { url: `/api/${search}`, accept: 'application/json' },
    { url: `/api/${search}`, accept: 'text/plain' },
    { url: `/${search}`, accept: 'text/html' },
  ]
  const first = store.idAt(0)
  // An empty corpus (no first id) answers 503 to these: nothing to warm, and nothing to log.
  if (first === undefined) return requests
  return [
    ...requests,
    { url: '/api', accept: 'application/json' },
    { url: '/api', accept: 'text/plain' },
    { url: `/api/q/q${first}`, accept: 'application/json' },
    { url: '/', accept: 'text/html' },
  ]
}

export interface WarmUpOptions {
  /** Warm up once ready (default); false when only describing the API. */
  preload?: boolean
}

/**
 * The start-up warm-up, in order: once the server is ready, the catalog's first load and the
 * search warm-up (side by side, see the catalog and quote-store plugins), then warmUpRequests()
 * through `inject`, one after the other. They are counted in the metrics and the client digest
 * like any request. A refused one does not stop the others (what it would have warmed pays for
 * itself); a close stops them, and waits for the one under way.
 */
const warmUpPlugin: FastifyPluginAsync<WarmUpOptions> = async (fastify, { preload = true }) => {
  let warm: Promise<void> = Promise.resolve()
  fastify.decorate('warmedUp', () => warm)
  if (!preload) return
  let closing = false
  let underWay: Promise<unknown> = Promise.resolve()
  const remoteAddress = warmUpAddress()

  async function sendRequests(started: number): Promise<void> {
    const refused: { url: string; status: number }[] = []
    for (const request of warmUpRequests(fastify.quoteStore)) {
      if (closing) return
      const headers = { accept: request.accept, 'user-agent': WARM_UP_AGENT }
      const response = fastify.inject({ url: request.url, headers, remoteAddress })
      underWay = response
      try {
        const { statusCode } = await response
        if (statusCode >= 300) refused.push({ url: request.url, status: statusCode })
      } catch (error) {
        fastify.log.warn({ err: error, url: request.url }, 'warm-up request failed')
      }
    }
    const ms = Date.now() - started
    if (refused.length > 0) fastify.log.warn({ ms, refused }, 'warm-up incomplete')
    else fastify.log.info({ ms }, 'warmed up')
  }

  fastify.addHook('onReady', async () => {
    const started = Date.now()
    warm = Promise.all([fastify.catalogWarm(), fastify.searchWarm()]).then(() =>
      sendRequests(started),
    )
  })
  fastify.addHook('preClose', async () => {
    closing = true
    await underWay.catch(() => undefined)
  })
}

export default fp(warmUpPlugin, {
  name: 'warm-up',
  fastify: '5.x',
  dependencies: ['catalog', 'quote-store'],
})
