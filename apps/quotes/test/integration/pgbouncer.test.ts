import { readdirSync } from 'node:fs'
import { QuoteResponse, SearchResponse } from '@repo/contracts'
import { queryRows, type Replicas } from '@repo/service-kit/testing'
import { describeReplicasBehindPgBouncer, expectThreeStarted } from '@repo/service-kit/vitest'
import { Value } from 'typebox/value'
import { expect } from 'vitest'
import app from '../../src/app.js'
import { loadQuotesConfig, type QuotesConfig } from '../../src/config.js'
import { prepareDatabase } from '../../src/lib/database.js'
import { readSeedFile } from '../../src/lib/seed.js'
import { paths } from '../../src/paths.js'
import { JSON_ACCEPT } from '../support/test-app.js'

async function expectMigratedAndSeededOnce(replicas: Replicas<QuotesConfig>) {
  expectThreeStarted(replicas)
  const migrations = await queryRows<{ name: string }>(
    replicas.db.url,
    'SELECT name FROM pgmigrations',
  )
  // Each migration of the folder, applied once.
  const expected = readdirSync(paths.migrations)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => f.replace(/\.sql$/, ''))
    .sort()
  expect(migrations.map((row) => row.name).sort()).toEqual(expected)
  const [count] = await queryRows<{ n: number }>(
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

describeReplicasBehindPgBouncer({
  service: 'quotes',
  loadConfig: loadQuotesConfig,
  prepareDatabase,
  app,
  // Too small for the corpus: quotes by id and random quotes are read from Postgres.
  env: { QUOTE_CACHE_MAX: '100' },
  preparedOnce: [
    'all start, and the empty database is migrated and seeded exactly once',
    expectMigratedAndSeededOnce,
  ],
  serves: ['each serves a random quote, a quote by id and a search page (JSON)', expectKeyPaths],
  throughPostgres: async (replicas) => {
    const urls = replicas.started.map((replica) => replica.url)
    let n = 0
    // Every request reaches Postgres: a term never searched before, on the next replica.
    return async () => {
      n += 1
      const res = await getJson(`${urls[n % urls.length]}/api/search?term=${n}%20`)
      await res.arrayBuffer()
      return res.status
    }
  },
})
