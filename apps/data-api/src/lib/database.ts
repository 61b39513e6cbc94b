import { type MigrateOptions, migrate } from '@repo/service-kit'
import { paths } from '../paths.js'

/**
 * Brings the database to the current schema (creating it if needed); safe from several replicas,
 * also through a transaction-mode pooler. `databaseUrl` bypasses the pooler when one is configured
 * (DATABASE_DIRECT_URL).
 */
export async function prepareDatabase(
  databaseUrl: string,
  log?: MigrateOptions['log'],
): Promise<void> {
  // Stryker disable next-line ConditionalExpression: with no log, { log: undefined } and {} are the same to migrate (it calls log?.info)
  await migrate({ databaseUrl, dir: paths.migrations, ...(log ? { log } : {}) })
}
