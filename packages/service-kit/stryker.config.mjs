// Mutation testing of service-kit's code that the tests needing no Postgres or Redis reach (pure
// functions, and plugins tested on a bare Fastify app), two workers (pnpm test:mutation). The
// rest (plugins, stores): stryker.integration.config.mjs.
// src/testing/ is test support (helpers the suites run on), not mutated.
import { strykerConfig } from '../../stryker.base.mjs'

export const unitFiles = [
  'src/bounded-cache.ts',
  'src/config.ts',
  'src/errors.ts',
  'src/redact.ts',
  'src/text-input.ts',
  'src/unavailable.ts',
  'src/request-durations.ts',
  'src/seeded-random.ts',
  'src/fastify-options.ts',
  'src/describe.ts',
  // PGlite and ioredis-mock run in the test's process.
  'src/embedded.ts',
  'src/cli.ts',
  // Plugins and state whose tests build a bare Fastify app (inject, no Postgres or Redis).
  'src/dependency-state.ts',
  'src/plugins/pressure.ts',
  'src/plugins/problems.ts',
  'src/plugins/response-headers.ts',
  'src/plugins/health.ts',
  'src/plugins/metrics.ts',
  'src/plugins/problem-pages.ts',
  'src/plugins/request-log.ts',
  'src/plugins/response-pipeline.ts',
  'src/plugins/openapi.ts',
  'src/plugins/pages.ts',
]

export default strykerConfig({
  name: 'service-kit-unit',
  mutate: unitFiles,
  tests: [
    'test/bounded-cache*.test.ts',
    'test/config*.test.ts',
    'test/errors*.test.ts',
    'test/redact*.test.ts',
    'test/text-input*.test.ts',
    'test/unavailable*.test.ts',
    'test/request-durations*.test.ts',
    'test/dependency-state*.test.ts',
    'test/pressure*.test.ts',
    'test/problems*.test.ts',
    'test/response-headers*.test.ts',
    'test/seeded-random*.test.ts',
    'test/health*.test.ts',
    'test/metrics*.test.ts',
    'test/problem-pages*.test.ts',
    'test/request-log*.test.ts',
    'test/response-pipeline*.test.ts',
    'test/openapi*.test.ts',
    'test/fastify-options*.test.ts',
    'test/describe*.test.ts',
    'test/pages*.test.ts',
    'test/embedded*.test.ts',
    'test/cli*.test.ts',
  ],
})
