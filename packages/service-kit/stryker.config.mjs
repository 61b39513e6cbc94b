// Mutation testing of service-kit's code that the tests needing no Postgres or Redis reach, two
// workers (pnpm test:mutation). The rest (plugins, stores): stryker.integration.config.mjs.
// src/testing/ is test support (helpers the suites run on), not mutated.
import { strykerConfig } from '../../stryker.base.mjs'

export const unitFiles = [
  'src/config.ts',
  'src/errors.ts',
  'src/redact.ts',
  'src/text-input.ts',
  'src/unavailable.ts',
  'src/request-durations.ts',
]

export default strykerConfig({
  name: 'service-kit-unit',
  mutate: unitFiles,
  tests: [
    'test/config*.test.ts',
    'test/errors*.test.ts',
    'test/redact*.test.ts',
    'test/text-input*.test.ts',
    'test/unavailable*.test.ts',
    'test/request-durations*.test.ts',
  ],
})
