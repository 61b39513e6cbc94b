import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import sessions from '../../plugins/sessions.js'
import accountPages from './account-pages.js'
import authPages from './auth-pages.js'
import { renderPage } from './page.js'

export interface DashboardOptions {
  sessionSecret: string | undefined
  cookieSecure: boolean
  authPerAddress: number
  authPerAccount: number
}

/** The server-rendered dashboard, with its sessions and CSRF protection kept to this scope. */
const dashboard: FastifyPluginAsyncTypebox<DashboardOptions> = async (fastify, opts) => {
  await fastify.register(sessions, { secret: opts.sessionSecret, secure: opts.cookieSecure })

  fastify.get('/', { schema: { hide: true } }, async (request, reply) => {
    if (request.session.get('userId')) return reply.redirect('/dashboard', 303)
    return renderPage(request, reply, 'home', { title: 'Welcome' })
  })
  await fastify.register(authPages, {
    perAddress: opts.authPerAddress,
    perAccount: opts.authPerAccount,
  })
  await fastify.register(accountPages)
}

export default dashboard
