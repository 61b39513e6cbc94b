import { migrate } from '@repo/service-kit'
import { paths } from '../paths.js'

interface Log {
  info: (obj: object, msg?: string) => void
}

/** Brings the database to the current schema (creating it if needed); safe from several replicas. */
export async function prepareDatabase(databaseUrl: string, log?: Log): Promise<void> {
  await migrate({ databaseUrl, dir: paths.migrations, ...(log ? { log } : {}) })
}
