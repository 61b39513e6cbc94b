// Reference (b): bare Fastify with its defaults, GET / does one Redis round trip (INCR of a fixed
// key) and returns a small JSON object.
// Run as its own process: PORT=<port> HOST=127.0.0.1 REDIS_URL=... REDIS_KEY_PREFIX=... node ...
import Fastify from 'fastify'
import { Redis } from 'ioredis'

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  keyPrefix: process.env.REDIS_KEY_PREFIX ?? 'bench:reference:',
})
const app = Fastify()

app.get('/', async () => {
  const count = await redis.incr('reference-counter')
  return { status: 200, count }
})
app.addHook('onClose', async () => {
  await redis.quit()
})

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' })

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => app.close().then(() => process.exit(0)))
}
