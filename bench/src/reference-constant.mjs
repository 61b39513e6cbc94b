// Reference (a): bare Fastify with its defaults, GET / returns a constant JSON object.
// Run as its own process: PORT=<port> HOST=127.0.0.1 node reference-constant.mjs
import Fastify from 'fastify'

const app = Fastify()
const body = { id: 'q1', quote: 'A constant quote for the reference server.', author: 'Bench' }

app.get('/', async () => body)

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' })

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => app.close().then(() => process.exit(0)))
}
