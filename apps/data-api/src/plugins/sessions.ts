import { createHash } from 'node:crypto'
import cookie from '@fastify/cookie'
import csrf from '@fastify/csrf-protection'
import formbody from '@fastify/formbody'
import { parseUrlEncoded } from '@repo/service-kit'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { SESSION_LIFETIME_SECONDS, Sessions } from '../lib/sessions.js'

export type CookieSecureMode = 'auto' | 'always' | 'never'

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions
    cookieSecureMode: CookieSecureMode
  }
}

export interface SessionsOptions {
  /** Signs the cookies (see sessionSecret); also keys the CSRF tokens. */
  secret: string
  secure: CookieSecureMode
}

const SECURE_NAME = '__Host-session'
const PLAIN_NAME = 'session'
// http://localhost and loopback addresses are secure contexts: browsers keep Secure cookies there.
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i

export interface CookieSecurity {
  secure: boolean
  name: string
  /** A Secure cookie is required but this request is plain HTTP to a non-local host. */
  refused: boolean
}

/**
 * Whether this request's session cookie is Secure, decided per request: HTTPS (or
 * `X-Forwarded-Proto: https` from a proxy listed in TRUST_PROXY) and http://localhost get a Secure
 * `__Host-` cookie; plain HTTP elsewhere (a LAN address) gets a plain cookie in `auto` mode, and in
 * `always` mode none that the browser would keep, which the log-in page says.
 */
export function cookieSecurity(request: FastifyRequest, mode: CookieSecureMode): CookieSecurity {
  const https = request.protocol === 'https'
  const local = LOOPBACK.test(request.hostname)
  const secure = mode === 'always' || (mode === 'auto' && (https || local))
  return { secure, name: secure ? SECURE_NAME : PLAIN_NAME, refused: secure && !https && !local }
}

/**
 * What a CSRF token is bound to: the session, or one constant for visitors not signed in (the
 * token library refuses an empty value).
 */
export function csrfBinding(request: FastifyRequest): string {
  return sessionToken(request) ?? 'no session'
}

/** The session token the browser sent (signature checked), or undefined. */
export function sessionToken(request: FastifyRequest): string | undefined {
  const raw = request.cookies[SECURE_NAME] ?? request.cookies[PLAIN_NAME]
  if (!raw) return undefined
  const unsigned = request.unsignCookie(raw)
  return unsigned.valid && unsigned.value ? unsigned.value : undefined
}

function cookieOptions(security: CookieSecurity) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: security.secure,
    signed: true,
  }
}

/**
 * Opens a new session (a new id at every log-in: a session id known before log-in is worth
 * nothing after it) and sets its cookie.
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  flash?: string,
): Promise<string> {
  const sessions = request.server.sessions
  const previous = sessionToken(request)
  if (previous) await sessions.end(previous)
  const token = await sessions.open(userId, {
    clientAddress: request.ip,
    userAgent: request.headers['user-agent'] ?? '',
    ...(flash ? { flash } : {}),
  })
  const security = cookieSecurity(request, request.server.cookieSecureMode)
  reply.setCookie(security.name, token, {
    ...cookieOptions(security),
    maxAge: SESSION_LIFETIME_SECONDS,
  })
  return token
}

/** Ends the session for good (its row is deleted) and clears the cookies. */
export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = sessionToken(request)
  if (token) await request.server.sessions.end(token)
  for (const name of [SECURE_NAME, PLAIN_NAME]) {
    if (request.cookies[name] !== undefined) {
      reply.clearCookie(name, { path: '/', secure: name === SECURE_NAME })
    }
  }
}

/**
 * Dashboard sessions and forms: server-side sessions (a signed cookie holding a random token,
 * the session a row in Postgres), CSRF tokens (double-submit cookie, bound to the session so a
 * token minted for one session is worthless with another's cookie), and HTML forms parsed strictly
 * (see parseUrlEncoded). Registered in the dashboard's scope only: the JSON API neither reads
 * cookies nor accepts form bodies (a form post to it is a 415, never a parsed request).
 */
const sessions: FastifyPluginAsync<SessionsOptions> = async (fastify, opts) => {
  fastify.decorate('sessions', new Sessions(fastify.pg))
  fastify.decorate('cookieSecureMode', opts.secure)
  await fastify.register(cookie, { secret: opts.secret })
  await fastify.register(formbody, { bodyLimit: 16 * 1024, parser: parseUrlEncoded })
  await fastify.register(csrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: '_csrf',
    cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', signed: true },
    getUserInfo: csrfBinding,
    csrfOpts: { hmacKey: createHash('sha256').update(`csrf:${opts.secret}`).digest() },
  })
}

export default fp(sessions, { name: 'sessions', fastify: '5.x', dependencies: ['postgres'] })
