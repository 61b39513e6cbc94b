// Mutation testing of the contracts' validation helpers by their tests (pnpm test:mutation).
import { strykerConfig } from '../../stryker.base.mjs'

export default strykerConfig({
  name: 'contracts',
  mutate: ['src/**/*.ts', '!src/index.ts'],
  tests: ['test/**/*.test.ts'],
})
