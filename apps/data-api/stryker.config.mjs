// Mutation testing of data-api's pure code by its unit tests (pnpm test:mutation). The rest of
// src/lib: stryker.integration.config.mjs.
import { strykerConfig } from '../../stryker.base.mjs'

export const unitFiles = [
  'src/features/*.ts',
  'src/lib/api-key.ts',
  'src/lib/clock.ts',
  'src/lib/email.ts',
  'src/lib/feature-slots.ts',
  'src/lib/usage-chart.ts',
  'src/lib/usage-csv.ts',
  'src/lib/last-used.ts',
  'src/lib/password-strength.ts',
  'src/lib/password-strength.worker.ts',
]

export default strykerConfig({
  name: 'data-api-unit',
  mutate: unitFiles,
  tests: ['test/unit/**/*.test.ts'],
})
