// Mutation testing of quotes' src/lib files that need Postgres (the store, the seed), by the
// integration suite (each file makes its own database) and the unit tests (some of these files
// unit-test their pure parts, e.g. search-sample.ts), one worker (pnpm test:mutation).
import { strykerConfig } from '../../stryker.base.mjs'
import { unitFiles } from './stryker.config.mjs'

export default strykerConfig({
  name: 'quotes-integration',
  mutate: ['src/lib/*.ts', ...unitFiles.map((f) => `!${f}`)],
  tests: ['test/integration/**/*.test.ts', 'test/unit/**/*.test.ts'],
  concurrency: 1,
})
