// Applies migrations (and seeds an empty database) without starting the server:
//   pnpm --filter @repo/quotes migrate
// Past the pooler when DATABASE_DIRECT_URL is set, as the service's own start-up.
import { migrationUrl } from '@repo/service-kit'
import { pino } from 'pino'
import { loadQuotesConfig } from '../config.js'
import { prepareDatabase } from '../lib/database.js'

const config = loadQuotesConfig()
const log = pino({ level: config.LOG_LEVEL })
await prepareDatabase(migrationUrl(config), log)
log.info('database is up to date')
