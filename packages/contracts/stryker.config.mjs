// Mutation testing of the contracts' validation helpers by their tests (pnpm test:mutation).
import { strykerConfig } from '../../stryker.base.mjs'

export default strykerConfig({
  name: 'contracts',
  // The helpers with logic; the other files are declarations (schemas and their descriptions).
  mutate: ['src/plans.ts', 'src/problem.ts', 'src/quote.ts', 'src/schema-helpers.ts'],
  tests: ['test/**/*.test.ts'],
})
