import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { describeService } from '@repo/service-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import app from '../../src/app.js'
import { loadDataApiConfig } from '../../src/config.js'

// `pnpm openapi` builds the app with describeOnly: no store is needed, and none is touched.
// Listeners stand where Postgres and Redis would be, and count whoever connects.
const connections: string[] = []
let listeners: Server[] = []
const listen = (name: string) =>
  new Promise<{ server: Server; port: number }>((resolve) => {
    const server = createServer((socket) => {
      connections.push(name)
      socket.destroy()
    }).listen(0, '127.0.0.1', () => {
      resolve({ server, port: (server.address() as { port: number }).port })
    })
  })

let postgresPort = 0
let redisPort = 0
beforeAll(async () => {
  const postgres = await listen('postgres')
  const redis = await listen('redis')
  listeners = [postgres.server, redis.server]
  postgresPort = postgres.port
  redisPort = redis.port
})
afterAll(async () => {
  await Promise.all(listeners.map((server) => new Promise((done) => server.close(done))))
})

describe('the OpenAPI document without stores', () => {
  it('matches openapi/data-api.json, made without connecting to Postgres or Redis', async () => {
    const config = loadDataApiConfig({
      EMBEDDED_STORES: 'off',
      DATABASE_URL: `postgres://127.0.0.1:${postgresPort}/data_api`,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    })
    const document = await describeService(app, config)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(connections).toEqual([])
    const committed = new URL('../../../../openapi/data-api.json', import.meta.url)
    expect(document).toEqual(JSON.parse(readFileSync(committed, 'utf8')))
  })
})
