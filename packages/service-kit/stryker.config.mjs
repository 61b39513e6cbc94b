// Mutation testing of service-kit's code that needs no Postgres or Redis, by the tests that need
// neither (pnpm test:mutation). The rest: stryker.integration.config.mjs. src/testing/ is test
// support (helpers the suites run on), not mutated.
import { strykerConfig } from '../../stryker.base.mjs'

export const unitFiles = [
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
  testFiles: [
    'test/problems.test.ts',
    'test/pressure.test.ts',
    'test/request-durations.test.ts',
    'test/response-headers.test.ts',
    'test/text-input.test.ts',
    'test/unavailable.test.ts',
    'test/unit/**/*.test.ts',
  ],
})
