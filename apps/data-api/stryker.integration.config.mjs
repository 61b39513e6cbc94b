// Mutation testing of data-api's src/lib files that need Postgres or Redis, by the integration
// suite (each file makes its own database and key prefix), one worker (pnpm test:mutation).
import { strykerConfig } from '../../stryker.base.mjs'
import { unitFiles } from './stryker.config.mjs'

export default strykerConfig({
  name: 'data-api-integration',
  mutate: ['src/lib/*.ts', ...unitFiles.map((f) => `!${f}`)],
  tests: ['test/integration/**/*.test.ts'],
  concurrency: 1,
})
