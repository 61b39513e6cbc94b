/** The Stryker runs of pnpm test:mutation, in order, and which files each one mutates. */
import { matchesGlob } from 'node:path'
import { pathToFileURL } from 'node:url'

export interface Run {
  /** Its folder under reports/mutation/. */
  name: string
  /** The package, from the repository root. */
  dir: string
  config: string
}

export const RUNS: Run[] = [
  { name: 'contracts', dir: 'packages/contracts', config: 'stryker.config.mjs' },
  { name: 'service-kit-unit', dir: 'packages/service-kit', config: 'stryker.config.mjs' },
  {
    name: 'service-kit-integration',
    dir: 'packages/service-kit',
    config: 'stryker.integration.config.mjs',
  },
  { name: 'quotes-unit', dir: 'apps/quotes', config: 'stryker.config.mjs' },
  { name: 'quotes-integration', dir: 'apps/quotes', config: 'stryker.integration.config.mjs' },
  { name: 'data-api-unit', dir: 'apps/data-api', config: 'stryker.config.mjs' },
  { name: 'data-api-integration', dir: 'apps/data-api', config: 'stryker.integration.config.mjs' },
]

/** The `mutate` globs of a run's config (relative to its package; `!` excludes). */
export async function mutateGlobs(root: string, run: Run): Promise<string[]> {
  const url = pathToFileURL(`${root}/${run.dir}/${run.config}`).href
  const config = (await import(url)) as { default: { mutate: string[] } }
  return config.default.mutate
}

/** True when `file` (relative to the package) is one the globs mutate. */
export function isMutated(globs: string[], file: string): boolean {
  const excluded = globs.some((glob) => glob.startsWith('!') && matchesGlob(file, glob.slice(1)))
  return !excluded && globs.some((glob) => !glob.startsWith('!') && matchesGlob(file, glob))
}
