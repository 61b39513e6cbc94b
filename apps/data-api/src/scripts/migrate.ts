// Applies migrations without starting the server: pnpm --filter @repo/data-api migrate [--help]
import { commandLog, migrationUrl, runCommand, withCommandStores } from '@repo/service-kit'
import { loadDataApiConfig } from '../config.js'
import { prepareDatabase } from '../lib/database.js'

const HELP = `
Usage: pnpm --filter @repo/data-api migrate

Brings the data_api database to the current schema (creating the database when the role may).
Safe beside running replicas (an advisory lock); the service does the same at start-up
(MIGRATE_ON_START).

Environment:
  DATABASE_URL          default postgres://localhost:5432/data_api
  DATABASE_DIRECT_URL   used instead when set (past a pooler such as PgBouncer)
  EMBEDDED_STORES       auto (default): with no DATABASE_URL and nothing answering, the embedded
                        Postgres in .data/data-api/pglite, as the service uses; off: fail instead
`

await runCommand({ name: 'data-api migrate', help: HELP }, () =>
  withCommandStores('data-api', loadDataApiConfig(), async (config) => {
    await prepareDatabase(migrationUrl(config), commandLog)
    commandLog.info({}, 'database is up to date')
  }),
)
