// Applies migrations without starting the server: pnpm --filter @repo/data-api migrate
// Past the pooler when DATABASE_DIRECT_URL is set, as the service's own start-up.
import { migrationUrl } from '@repo/service-kit'
import { pino } from 'pino'
import { loadDataApiConfig } from '../config.js'
import { prepareDatabase } from '../lib/database.js'

const config = loadDataApiConfig()
const log = pino({ level: config.LOG_LEVEL })
await prepareDatabase(migrationUrl(config), log)
log.info('database is up to date')
