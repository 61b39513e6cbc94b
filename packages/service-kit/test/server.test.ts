import type { FastifyPluginAsync } from 'fastify'
import { Type } from 'typebox'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type BaseConfig, baseConfigProperties, loadConfig } from '../src/config.js'
import { EMBEDDED_REDIS_URL } from '../src/embedded.js'
import healthPlugin from '../src/plugins/health.js'
import { startServer } from '../src/server.js'
import { freePort, waitFor } from '../src/testing/index.js'

// startServer in this process: it listens, runs beforeStart first, falls back to embedded stores,
// exits 1 when it cannot start, and on SIGTERM drains (/ready 503 while requests are still
// served), closes and exits 0. process.exit is caught; the server's log goes to stdout.

const schema = Type.Object(baseConfigProperties({ port: 3100, database: 'svc' }))
const exits: Array<number | string | null | undefined> = []
beforeEach(() => {
  exits.length = 0
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    exits.push(code)
    return undefined as never
  })
})
afterAll(() => {
  vi.restoreAllMocks()
})

const app: FastifyPluginAsync<{ config: BaseConfig }> = async (fastify, opts) => {
  await fastify.register(healthPlugin, { checks: {} })
  fastify.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300))
    return { port: opts.config.PORT }
  })
}

const config = (env: Record<string, string> = {}) =>
  loadConfig(schema, {
    HOST: '127.0.0.1',
    PORT: '0',
    EMBEDDED_STORES: 'off',
    LOG_LEVEL: 'warn',
    ...env,
  })

const base = (server: { server: { address: () => unknown } }) =>
  `http://127.0.0.1:${(server.server.address() as { port: number }).port}`

describe('startServer', () => {
  it('exits 1 when the app cannot start', async () => {
    const failing: FastifyPluginAsync = async () => {
      throw new Error('cannot start')
    }
    const server = await startServer({ name: 'svc', config: config(), app: failing })
    expect(exits).toEqual([1])
    expect(server.server.listening).toBe(false)
  })

  it('runs beforeStart, then listens where configured', async () => {
    const port = await freePort()
    const calls: string[] = []
    const server = await startServer({
      name: 'svc',
      config: config({ PORT: String(port) }),
      app,
      beforeStart: async (log, seen) => {
        calls.push(`before ${seen.PORT} ${typeof log.info}`)
      },
      fastifyOverrides: { bodyLimit: 10 },
    })
    try {
      expect(calls).toEqual([`before ${port} function`])
      expect(server.server.address()).toMatchObject({ address: '127.0.0.1', port })
      const response = await fetch(`${base(server)}/slow`)
      expect(await response.json()).toEqual({ port })
      // The service's own Fastify options apply.
      const big = await fetch(`${base(server)}/slow`, { method: 'POST', body: 'x'.repeat(11) })
      expect(big.status).toBe(413)
      expect(exits).toEqual([])
    } finally {
      await server.close()
    }
  })

  it('falls back to embedded stores when none is configured or answering, and closes them', async () => {
    const seen: BaseConfig[] = []
    const server = await startServer({
      name: 'svc-embedded',
      config: config({
        EMBEDDED_STORES: 'auto',
        DATABASE_URL: `postgres://127.0.0.1:${await freePort()}/svc`,
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
        EMBEDDED_DATA_DIR: `${process.env.TMPDIR ?? '/tmp'}/kit-server-${process.pid}`,
      }),
      app,
      beforeStart: async (_log, resolved) => {
        seen.push(resolved)
      },
    })
    expect(seen[0]?.REDIS_URL).toBe(EMBEDDED_REDIS_URL)
    expect(seen[0]?.PG_POOL_MAX).toBe(1)
    const pglite = seen[0]?.DATABASE_URL as string
    const { answers } = await import('../src/embedded.js')
    expect(await answers(pglite, 5432)).toBe(true)
    await server.close()
    expect(await answers(pglite, 5432, 500)).toBe(false)
  }, 60_000)

  it('drains on SIGTERM: /ready says 503 while requests are served, then closes and exits 0', async () => {
    const server = await startServer({
      name: 'svc',
      config: config({ SHUTDOWN_DRAIN_MS: '400' }),
      app,
    })
    const url = base(server)
    expect((await fetch(`${url}/ready`)).status).toBe(200)
    process.emit('SIGTERM', 'SIGTERM')
    const ready = await fetch(`${url}/ready`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ status: 'shutting_down' })
    expect((await fetch(`${url}/slow`)).status).toBe(200)
    await waitFor('the server to close', async () => !server.server.listening, 5_000)
    // Every server this file started exits 0 on the signal (the first one had failed already).
    await waitFor('the exits', async () => exits.length >= 2, 5_000)
    expect(new Set(exits)).toEqual(new Set([0]))
  })
})
