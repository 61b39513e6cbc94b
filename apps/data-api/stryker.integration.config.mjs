// Mutation testing of data-api's src/lib files that need Postgres or Redis, and of the feature
// pool (threads), by the integration suite (each file makes its own database and key prefix) and
// the unit tests (which some of these files have for their pure parts), one worker (pnpm
// test:mutation).
import { strykerConfig } from '../../stryker.base.mjs'
import { unitFiles } from './stryker.config.mjs'

export default strykerConfig({
  name: 'data-api-integration',
  mutate: [
    'src/lib/*.ts',
    'src/features/pool.ts',
    'src/features/worker.ts',
    ...unitFiles.filter((f) => f.startsWith('src/lib/')).map((f) => `!${f}`),
  ],
  tests: ['test/integration/**/*.test.ts', 'test/unit/**/*.test.ts'],
  concurrency: 1,
})
