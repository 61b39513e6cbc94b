import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { LoginThrottle } from '../../lib/login-throttle.js'
import { sessionSecret } from '../../lib/session-secret.js'
import { WindowCounter } from '../../lib/window-counter.js'
import sessions, { type CookieSecureMode, sessionToken } from '../../plugins/sessions.js'
import accountPages from './account-pages.js'
import authPages, { AUTH_WINDOW_MS } from './auth-pages.js'
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
  // Failed log-ins per account, also counting wrong passwords typed in the account settings.
  const loginThrottle = new LoginThrottle(
    new WindowCounter(fastify.redis, fastify.redisState, 'login-attempts:', AUTH_WINDOW_MS / 1000),
    opts.authPerAccount,
  )
  await fastify.register(authPages, { perAddress: opts.authPerAddress, loginThrottle })
  await fastify.register(accountPages, { loginThrottle })
}

export default dashboard
