import { migrationUrl, startServer } from '@repo/service-kit'
import app from './app.js'
import { loadDataApiConfig } from './config.js'
import { prepareDatabase } from './lib/database.js'
import { serverOverrides } from './server-options.js'

const config = loadDataApiConfig()

await startServer({
  name: 'data-api',
  config,
  app,
  fastifyOverrides: serverOverrides,
  // The stores may have been swapped for embedded ones: use the config startServer passes.
  // Migrations (and the seed) bypass the pooler when DATABASE_DIRECT_URL is set.
  beforeStart: async (log, resolved) => {
    if (resolved.MIGRATE_ON_START) await prepareDatabase(migrationUrl(resolved), log)
  },
})
