// The reference servers a scenario can be compared with (`reference` in a scenario module).
import { join } from 'node:path'
import { infra, paths } from './config.mjs'
import { freePort, startProcess } from './servers.mjs'

export const references = {
  'constant-json': {
    label: 'bare Fastify, GET / returns constant JSON',
    script: join(paths.src, 'reference-constant.mjs'),
  },
  evalsha: {
    label: 'bare Fastify, GET / runs one EVALSHA (INCR + EXPIREAT) with ioredis, returns JSON',
    script: join(paths.src, 'reference-evalsha.mjs'),
  },
}

/** Starts reference `name` in its own process; resolves to { name, url, handle }. */
export async function startReference(name) {
  const reference = references[name]
  if (!reference) throw new Error(`unknown reference ${JSON.stringify(name)}`)
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const handle = await startProcess({
    name: `reference ${name}`,
    args: [reference.script],
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL: infra.redis,
      REDIS_KEY_PREFIX: infra.redisPrefix,
    },
    logFile: join(paths.results, `reference-${name}.log`),
    readyUrl: `${url}/`,
    timeoutMs: 30_000,
  })
  return { name, url, handle }
}
