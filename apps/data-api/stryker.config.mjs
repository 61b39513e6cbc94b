// Mutation testing of data-api's pure code by its unit tests (pnpm test:mutation). The rest of
// src/lib: stryker.integration.config.mjs.
import { strykerConfig } from '../../stryker.base.mjs'

export const unitFiles = [
  'src/features/*.ts',
  '!src/features/pool.ts',
  '!src/features/worker.ts',
  'src/lib/api-key.ts',
  'src/lib/clock.ts',
  'src/lib/email.ts',
  'src/lib/feature-slots.ts',
  'src/lib/usage-chart.ts',
  'src/lib/usage-csv.ts',
  'src/lib/last-used.ts',
  'src/lib/password-strength.ts',
  'src/lib/password-strength.worker.ts',
  'src/lib/key-state.ts',
  'src/lib/data-info-body.ts',
  'src/lib/passwords.ts',
  'src/lib/json-body.ts',
  'src/lib/json-text.ts',
  'src/lib/feature-response-body.ts',
  'src/lib/rate-limit-fields.ts',
  'src/lib/feature-problems.ts',
]

export default strykerConfig({
  name: 'data-api-unit',
  mutate: unitFiles,
  // The feature pool's own tests time real threads against budgets: on a loaded machine, under
  // Stryker's instrumentation, they fail the initial run. pool.ts and worker.ts are left to them.
  tests: ['test/unit/**/*.test.ts', '!test/unit/features/pool*.test.ts'],
})
