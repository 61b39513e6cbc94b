import { startServer } from '@repo/service-kit'
import app from './app.js'
import { loadQuotesConfig } from './config.js'
import { prepareDatabase } from './lib/database.js'

const config = loadQuotesConfig()

await startServer({
  config,
  app,
  beforeStart: async (log) => {
    if (config.MIGRATE_ON_START) await prepareDatabase(config.DATABASE_URL, log)
  },
})
