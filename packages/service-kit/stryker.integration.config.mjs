// Mutation testing of service-kit's code that reaches Postgres or Redis, by the whole suite (the
// tests make their own databases and key prefixes), one worker at a time (pnpm test:mutation).
import { strykerConfig } from '../../stryker.base.mjs'
import { unitFiles } from './stryker.config.mjs'

export default strykerConfig({
  name: 'service-kit-integration',
  mutate: ['src/**/*.ts', '!src/index.ts', '!src/testing/**', ...unitFiles.map((f) => `!${f}`)],
  tests: ['test/**/*.test.ts'],
  concurrency: 1,
})
