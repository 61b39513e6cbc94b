// Mutation testing of service-kit's code that needs no Postgres or Redis, two workers
// (pnpm test:mutation). The rest: stryker.integration.config.mjs. src/testing/ is test
// support (helpers the suites run on), not mutated.
import { strykerConfig } from '../../stryker.base.mjs'

export const unitFiles = [
  'src/config.ts',
  'src/errors.ts',
  'src/redact.ts',
  'src/text-input.ts',
  'src/unavailable.ts',
  'src/request-durations.ts',
  'src/lazy-logger.ts',
  'src/fastify-options.ts',
  'src/plugins/problems.ts',
  'src/plugins/pressure.ts',
  'src/plugins/response-headers.ts',
  'src/plugins/response-pipeline.ts',
]

export default strykerConfig({
  name: 'service-kit-unit',
  mutate: unitFiles,
  // vitest's related mode picks, of all the tests, those that import the mutated file.
  testDir: 'test',
})
