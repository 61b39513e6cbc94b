import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { FastifyPluginAsync } from 'fastify'
import { Type } from 'typebox'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type BaseConfig, baseConfigProperties, loadConfig } from '../src/config.js'
import { EMBEDDED_REDIS_URL } from '../src/embedded.js'
import healthPlugin from '../src/plugins/health.js'
import { startServer } from '../src/server.js'
import { freePort, PG_ADMIN_URL, TEST_REDIS_URL, waitFor } from '../src/testing/index.js'
import type { LogLine } from './support/log-lines.js'

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
const logDir = mkdtempSync(join(tmpdir(), 'kit-server-log-'))
afterAll(() => {
  vi.restoreAllMocks()
  rmSync(logDir, { recursive: true })
})

/** A file for a server's log (its descriptor, left open: the server may still write), and its lines. */
function logFile(name: string) {
  const path = join(logDir, `${name}.ndjson`)
  const fd = openSync(path, 'a')
  const lines = () =>
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogLine)
  return { fd, lines }
}

const EMBEDDED_WARNING =
  '*** svc-embedded is running on EMBEDDED STORES: no Postgres/Redis was configured or ' +
  'answering. Fine for trying it out; not for production (set DATABASE_URL and REDIS_URL, or ' +
  'EMBEDDED_STORES=off to fail instead). ***'

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
  it('exits 1 when the app cannot start, its reason written out before it exits', async () => {
    const failing: FastifyPluginAsync = async (fastify) => {
      fastify.addHook('onClose', async () => fastify.log.warn('closed what it had opened'))
      throw new Error('cannot start')
    }
    const log = logFile('failing')
    const server = await startServer({
      name: 'svc',
      config: config(),
      app: failing,
      logDestination: log.fd,
    })
    expect(exits).toEqual([1])
    expect(server.server.listening).toBe(false)
    // Read at once: the lines were flushed before exiting, not left to the next periodic flush.
    expect(log.lines()).toMatchObject([
      { level: 60, msg: 'failed to start', err: { message: 'cannot start' } },
      { level: 40, msg: 'closed what it had opened' },
    ])
  })

  it('runs beforeStart, then listens where configured', async () => {
    const port = await freePort()
    const calls: string[] = []
    const log = logFile('listening')
    const server = await startServer({
      name: 'svc',
      config: config({ PORT: String(port), LOG_LEVEL: 'info' }),
      logDestination: log.fd,
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
      // Everything before the line saying it listens is written out with it: no store warning.
      const listening = () => log.lines().some((line) => line.msg.startsWith('Server listening'))
      await waitFor('the log to be written out', async () => listening(), 5_000)
      expect(log.lines().filter((line) => line.level >= 40)).toEqual([])
    } finally {
      await server.close()
    }
  })

  it('falls back to PGlite when Postgres does not answer, says so loudly, and closes it', async () => {
    const seen: BaseConfig[] = []
    const dataDir = join(logDir, 'data')
    const log = logFile('pglite')
    const server = await startServer({
      name: 'svc-embedded',
      config: config({
        EMBEDDED_STORES: 'auto',
        DATABASE_URL: `postgres://127.0.0.1:${await freePort()}/svc`,
        REDIS_URL: TEST_REDIS_URL,
        EMBEDDED_DATA_DIR: dataDir,
      }),
      app,
      beforeStart: async (_log, resolved) => {
        seen.push(resolved)
      },
      logDestination: log.fd,
    })
    expect(seen[0]?.REDIS_URL).toBe(TEST_REDIS_URL)
    expect(seen[0]?.PG_POOL_MAX).toBe(1)
    const pglite = seen[0]?.DATABASE_URL as string
    const { answers } = await import('../src/embedded.js')
    expect(await answers(pglite, 5432)).toBe(true)
    const warned = () => log.lines().filter((line) => line.msg === EMBEDDED_WARNING)
    await waitFor('the warning to be written out', async () => warned().length > 0, 5_000)
    expect(warned()).toMatchObject([
      {
        level: 40,
        postgres: `PGlite in ${resolve(dataDir, 'svc-embedded', 'pglite')}`,
        redis: 'external',
      },
    ])
    await server.close()
    expect(await answers(pglite, 5432, 500)).toBe(false)
  }, 60_000)

  it('falls back to an in-process Redis when Redis does not answer, and says so loudly', async () => {
    const seen: BaseConfig[] = []
    const log = logFile('redis-mock')
    const server = await startServer({
      name: 'svc-embedded',
      config: config({
        EMBEDDED_STORES: 'auto',
        DATABASE_URL: PG_ADMIN_URL,
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      }),
      app,
      beforeStart: async (_log, resolved) => {
        seen.push(resolved)
      },
      logDestination: log.fd,
    })
    try {
      expect(seen[0]).toMatchObject({ REDIS_URL: EMBEDDED_REDIS_URL, DATABASE_URL: PG_ADMIN_URL })
      const warned = () => log.lines().filter((line) => line.msg === EMBEDDED_WARNING)
      await waitFor('the warning to be written out', async () => warned().length > 0, 5_000)
      expect(warned()).toMatchObject([
        { level: 40, postgres: 'external', redis: 'in-process (counts reset on restart)' },
      ])
    } finally {
      await server.close()
    }
  })

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
