import { startServer } from '@repo/service-kit'
import app from './app.js'
import { loadDataApiConfig } from './config.js'
import { prepareDatabase } from './lib/database.js'
import { serverOverrides } from './server-options.js'

const config = loadDataApiConfig()

await startServer({
  config,
  app,
  fastifyOverrides: serverOverrides,
  beforeStart: async (log) => {
    if (config.MIGRATE_ON_START) await prepareDatabase(config.DATABASE_URL, log)
  },
})
