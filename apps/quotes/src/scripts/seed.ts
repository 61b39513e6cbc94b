// Re-seeds the quotes from data/quotes.json: inserts new ones, updates changed ones, removes
// seed quotes the file no longer has. Ids come from the file, so they never change.
//   pnpm --filter @repo/quotes seed
// Past the pooler when DATABASE_DIRECT_URL is set, as the service's own start-up.
import { migrationUrl } from '@repo/service-kit'
import { pino } from 'pino'
import { loadQuotesConfig } from '../config.js'
import { prepareDatabase } from '../lib/database.js'

const config = loadQuotesConfig()
const log = pino({ level: config.LOG_LEVEL })
const outcome = await prepareDatabase(migrationUrl(config), log, { onlyIfEmpty: false })
log.info(outcome, 're-seeded quotes (running services pick this up within CORPUS_REFRESH_SECONDS)')
