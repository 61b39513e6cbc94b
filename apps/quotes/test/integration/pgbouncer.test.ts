import { readdirSync } from 'node:fs'
import { QuoteResponse, SearchResponse } from '@repo/contracts'
import {
  type PgBouncer,
  type Replicas,
  restartUnderLoad,
  startPgBouncer,
  startReplicas,
} from '@repo/service-kit/testing'
import pg from 'pg'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import app from '../../src/app.js'
import { loadQuotesConfig, type QuotesConfig } from '../../src/config.js'
import { prepareDatabase } from '../../src/lib/database.js'
import { readSeedFile } from '../../src/lib/seed.js'
import { paths } from '../../src/paths.js'

const JSON_ACCEPT = { accept: 'application/json' }
let bouncer: PgBouncer

beforeAll(async () => {
  bouncer = await startPgBouncer()
})
afterAll(async () => {
  await bouncer?.stop()
})

/** Three replicas started at once on an empty database, their pools going through PgBouncer. */
function startThree(direct: boolean): Promise<Replicas<QuotesConfig>> {
  return startReplicas({
    count: 3,
    label: `quotes_bouncer_${direct ? 'direct' : 'pooled'}`,
    loadConfig: loadQuotesConfig,
    prepareDatabase,
    app,
    env: (db) => ({
      DATABASE_URL: bouncer.url(db.name),
      ...(direct ? { DATABASE_DIRECT_URL: db.url } : {}),
      // Too small for the corpus: quotes by id and random quotes are read from Postgres.
      QUOTE_CACHE_MAX: '100',
    }),
  })
}

async function rows<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<R>(text)).rows
  } finally {
    await client.end()
  }
}

async function expectMigratedAndSeededOnce(replicas: Replicas<QuotesConfig>) {
  expect(replicas.failures).toEqual([])
  expect(replicas.started).toHaveLength(3)
  const migrations = await rows<{ name: string }>(replicas.db.url, 'SELECT name FROM pgmigrations')
  // Every migration in the folder, each recorded once.
  const files = readdirSync(paths.migrations).filter((file) => file.endsWith('.sql'))
  expect(migrations.map((row) => row.name).sort()).toEqual(
    files.map((file) => file.slice(0, -'.sql'.length)).sort(),
  )
  const [count] = await rows<{ n: number }>(
    replicas.db.url,
    'SELECT count(*)::int AS n FROM quotes',
  )
  expect(count?.n).toBe((await readSeedFile()).length)
}

const getJson = (url: string) => fetch(url, { headers: JSON_ACCEPT })

async function expectKeyPaths(replicas: Replicas<QuotesConfig>) {
  for (const { url } of replicas.started) {
    const random = await getJson(`${url}/api`)
    expect(random.status).toBe(200)
    expect(Value.Check(QuoteResponse, await random.json())).toBe(true)

    const byId = await getJson(`${url}/api/q/q4321`)
    expect(byId.status).toBe(200)
    expect(await byId.json()).toMatchObject({ id: 'q4321', status: 200 })

    const search = await getJson(`${url}/api/search?term=love&limit=5&page=2`)
    expect(search.status).toBe(200)
    const page = await search.json()
    expect(Value.Check(SearchResponse, page)).toBe(true)
    expect(page).toMatchObject({ current_page: 2, limit: 5, search_term: 'love' })
    expect(page.results).toHaveLength(5)
  }
}

describe('three quotes replicas behind PgBouncer, migrating through it', () => {
  let replicas: Replicas<QuotesConfig>

  beforeAll(async () => {
    replicas = await startThree(false)
  }, 120_000)
  afterAll(async () => {
    await replicas?.close()
  })

  it('all start, and the empty database is migrated and seeded exactly once', async () => {
    await expectMigratedAndSeededOnce(replicas)
  })

  it('each serves a random quote, a quote by id and a search page (JSON)', async () => {
    await expectKeyPaths(replicas)
  })

  it('answer 200 again within 5 s of PgBouncer restarting, without a restart', async () => {
    const urls = replicas.started.map((replica) => replica.url)
    let lostConnections = 0
    for (const { instance } of replicas.started) {
      instance.app.pg.on('error', () => lostConnections++)
    }
    let n = 0
    // Every request reaches Postgres: a term never searched before, on the next replica.
    const request = async () => {
      n += 1
      const res = await getJson(`${urls[n % urls.length]}/api/search?term=${n}%20`)
      await res.arrayBuffer()
      return res.status
    }
    expect(await request()).toBe(200)

    const recovery = await restartUnderLoad(() => bouncer.restart(), request)

    // The restart really cut the replicas' pooled connections.
    expect(lostConnections).toBeGreaterThan(0)
    // Requests during the outage fail as server errors, never as a client's fault.
    expect(recovery.during.filter((status) => status !== 200 && status < 500)).toEqual([])
    expect(recovery.recoveredInMs).toBeDefined()
    expect(recovery.recoveredInMs).toBeLessThan(5_000)
  })
})

describe('three quotes replicas behind PgBouncer, migrating through DATABASE_DIRECT_URL', () => {
  let replicas: Replicas<QuotesConfig>

  beforeAll(async () => {
    replicas = await startThree(true)
  }, 120_000)
  afterAll(async () => {
    await replicas?.close()
  })

  it('all start, and the empty database is migrated and seeded exactly once', async () => {
    await expectMigratedAndSeededOnce(replicas)
  })

  it('each serves a random quote, a quote by id and a search page (JSON)', async () => {
    await expectKeyPaths(replicas)
  })
})
