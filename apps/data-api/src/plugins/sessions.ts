import { createHash, randomBytes } from 'node:crypto'
import csrf from '@fastify/csrf-protection'
import formbody from '@fastify/formbody'
import secureSession from '@fastify/secure-session'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

declare module '@fastify/secure-session' {
  interface SessionData {
    userId: string
    /** A one-time message shown on the next page (after a redirect). */
    flash: string
  }
}

export interface SessionsOptions {
  secret: string | undefined
  secure: boolean
}

/**
 * Dashboard sessions: an encrypted, authenticated cookie (libsodium secretbox) that is HttpOnly,
 * SameSite=Lax and Secure, holding only the user id; CSRF tokens for every form; HTML forms
 * parsed. Registered in the dashboard's scope only: the JSON API neither reads cookies nor
 * accepts form bodies (so a form post to it is a 415, never a parsed request).
 */
const sessions: FastifyPluginAsync<SessionsOptions> = async (fastify, opts) => {
  if (!opts.secret) {
    fastify.log.warn(
      'SESSION_SECRET is not set: using a random one, so sessions end when this process stops ' +
        'and are not shared between replicas',
    )
  }
  // secretbox needs a 32-byte key: derived from the configured secret, else random.
  const key = opts.secret ? createHash('sha256').update(opts.secret).digest() : randomBytes(32)
  await fastify.register(formbody, { bodyLimit: 16 * 1024 })
  await fastify.register(secureSession, {
    key,
    cookieName: 'session',
    expiry: 12 * 60 * 60,
    cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: opts.secure },
  })
  await fastify.register(csrf, { sessionPlugin: '@fastify/secure-session' })
}

export default fp(sessions, { name: 'sessions', fastify: '5.x' })
