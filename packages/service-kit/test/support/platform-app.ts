import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { baseConfigProperties, loadConfig } from '../../src/config.js'
import { fastifyOptions } from '../../src/fastify-options.js'
import platform, { type PlatformOptions } from '../../src/plugins/platform.js'
import {
  createTestDatabase,
  TEST_REDIS_URL,
  type TestDatabase,
  testRedisNamespace,
} from '../../src/testing/index.js'

const schema = Type.Object(baseConfigProperties({ port: 3100, database: 'kit' }))

/**
 * The platform plugin on a real database and Redis, for a test file: registers the file's hooks
 * (a database, a Redis key prefix and a service root with a package.json, views and an asset,
 * made before its tests and removed after; each app closed after its test) and returns
 * `platformApp`, which builds a service on them from environment variables and options, with a
 * `/page` route rendering a view.
 */
export function platformFixture(label: string) {
  let db: TestDatabase
  let root: string
  const ns = testRedisNamespace(`kit-${label}`)
  /** The apps still open; a test that closes one itself takes it out. */
  const apps: FastifyInstance[] = []
  beforeAll(async () => {
    db = await createTestDatabase(`kit_${label}`)
    root = mkdtempSync(join(tmpdir(), `kit-${label}-`))
    mkdirSync(join(root, 'views'))
    mkdirSync(join(root, 'public'))
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'svc', version: '3.4.5' }))
    writeFileSync(join(root, 'views', 'layout.eta'), '<%~ it.body %>')
    writeFileSync(join(root, 'views', 'page.eta'), '<p><%= it.word %></p>')
    writeFileSync(join(root, 'public', 'app.css'), 'p { margin: 0 }')
  }, 60_000)
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close()
  })
  afterAll(async () => {
    await db?.drop()
    await ns.clear()
    rmSync(root, { recursive: true, force: true })
  })

  /** A service on the platform; `logStream` given: with the services' logger writing there. */
  async function platformApp(
    env: Record<string, string> = {},
    opts: Partial<PlatformOptions> = {},
    logStream?: Writable,
  ) {
    const config = loadConfig(schema, {
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: ns.prefix,
      PG_POOL_MAX: '3',
      ...env,
    })
    const app = Fastify(logStream ? fastifyOptions(config, { logStream }) : {})
    apps.push(app)
    await app.register(platform, {
      name: 'kit-platform-test',
      config,
      root: pathToFileURL(`${root}/`),
      openApi: { title: 'Svc API', description: 'd', tags: [{ name: 'svc', description: 's' }] },
      ...opts,
    })
    app.get('/page', async (_request, reply) => reply.viewAsync('page', { word: 'hi' }))
    await app.ready()
    return app
  }

  return { platformApp, apps, redisPrefix: ns.prefix }
}
