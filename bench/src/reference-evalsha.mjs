// Reference (b): bare Fastify with its defaults, GET / runs one EVALSHA of a small quota script
// (INCR, and EXPIREAT at the next UTC midnight on the first count of the day) with ioredis, and
// returns a small JSON object: the data service's own Redis round trip per request.
// Run as its own process: PORT=<port> HOST=127.0.0.1 REDIS_URL=... REDIS_KEY_PREFIX=... node ...
import Fastify from 'fastify'
import { Redis } from 'ioredis'

const QUOTA = `
local used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIREAT', KEYS[1], ARGV[1]) end
return used
`

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  keyPrefix: process.env.REDIS_KEY_PREFIX ?? 'bench:reference:',
})
// ioredis sends a defined command as EVALSHA (EVAL once, when Redis does not know the script yet).
redis.defineCommand('quota', { numberOfKeys: 1, lua: QUOTA })

const app = Fastify()

app.get('/', async () => {
  const now = new Date()
  const day = now.toISOString().slice(0, 10)
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
  const used = await redis.quota(`reference-quota:${day}`, midnight / 1000)
  return { status: 200, used }
})
app.addHook('onClose', async () => {
  await redis.quit()
})

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' })

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => app.close().then(() => process.exit(0)))
}
