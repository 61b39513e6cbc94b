import { migrationUrl, startServer } from '@repo/service-kit'
import app from './app.js'
import { loadQuotesConfig } from './config.js'
import { prepareDatabase } from './lib/database.js'

const config = loadQuotesConfig()

await startServer({
  name: 'quotes',
  config,
  app,
  // The stores may have been swapped for embedded ones: use the config startServer passes.
  // Migrations (and the seed) bypass the pooler when DATABASE_DIRECT_URL is set.
  beforeStart: async (log, resolved) => {
    if (resolved.MIGRATE_ON_START) await prepareDatabase(migrationUrl(resolved), log)
  },
})
