import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sessionSecret } from '../../lib/session-secret.js'
import sessions, { type CookieSecureMode, sessionToken } from '../../plugins/sessions.js'
import accountPages from './account-pages.js'
import authPages from './auth-pages.js'
import { renderPage } from './page.js'

export interface DashboardOptions {
  /** SESSION_SECRET; when unset, one is made once and kept in Postgres (shared by replicas). */
  sessionSecret: string | undefined
  cookieSecure: CookieSecureMode
  authPerAddress: number
  authPerAccount: number
}

/** The server-rendered dashboard, with its sessions and CSRF protection kept to this scope. */
const dashboard: FastifyPluginAsyncTypebox<DashboardOptions> = async (fastify, opts) => {
  const { secret, source } = await sessionSecret(fastify.pg, opts.sessionSecret)
  if (source === 'postgres') {
    fastify.log.info(
      'SESSION_SECRET is not set: using the secret kept in Postgres for all replicas',
    )
  }
  await fastify.register(sessions, { secret, secure: opts.cookieSecure })

  fastify.get('/', { schema: { hide: true } }, async (request, reply) => {
    if (sessionToken(request)) return reply.redirect('/dashboard', 303)
    return renderPage(request, reply, 'home', { title: 'Welcome' })
  })
  await fastify.register(authPages, {
    perAddress: opts.authPerAddress,
    perAccount: opts.authPerAccount,
  })
  await fastify.register(accountPages)
}

export default dashboard
