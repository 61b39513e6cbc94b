// Re-seeds the quotes from data/quotes.json: pnpm --filter @repo/quotes seed [--help]
import { commandLog, migrationUrl, runCommand, withCommandStores } from '@repo/service-kit'
import { loadQuotesConfig } from '../config.js'
import { prepareDatabase } from '../lib/database.js'
import { DATABASE_ENVIRONMENT } from './environment.js'

const HELP = `
Usage: pnpm --filter @repo/quotes seed

Re-seeds the quotes from data/quotes.json (after migrating): inserts new ones, updates changed
ones, removes seed quotes the file no longer has. Ids come from the file, so they never change;
synthetic quotes (load-synthetic) are left alone. Running services pick the changes up within
CORPUS_REFRESH_SECONDS.

${DATABASE_ENVIRONMENT}
`

await runCommand({ name: 'quotes seed', help: HELP }, () =>
  withCommandStores('quotes', loadQuotesConfig(), async (config) => {
    const outcome = await prepareDatabase(migrationUrl(config), commandLog, { onlyIfEmpty: false })
    commandLog.info(
      { inserted: outcome.inserted, updated: outcome.updated, removed: outcome.removed },
      're-seeded quotes (running services pick this up within CORPUS_REFRESH_SECONDS)',
    )
  }),
)
