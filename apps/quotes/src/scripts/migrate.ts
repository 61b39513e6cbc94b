// Applies migrations (and seeds an empty database) without starting the server:
//   pnpm --filter @repo/quotes migrate [--help]
import { commandLog, migrationUrl, runCommand, withCommandStores } from '@repo/service-kit'
import { loadQuotesConfig } from '../config.js'
import { prepareDatabase } from '../lib/database.js'
import { DATABASE_ENVIRONMENT } from './environment.js'

const HELP = `
Usage: pnpm --filter @repo/quotes migrate

Brings the quotes database to the current schema (creating the database when the role may) and
seeds the corpus from data/quotes.json when it holds no quotes yet. Safe beside running replicas
(an advisory lock); the service does the same at start-up (MIGRATE_ON_START).

${DATABASE_ENVIRONMENT}
`

await runCommand({ name: 'quotes migrate', help: HELP }, () =>
  withCommandStores('quotes', loadQuotesConfig(), async (config) => {
    await prepareDatabase(migrationUrl(config), commandLog)
    commandLog.info({}, 'database is up to date')
  }),
)
