/**
 * The test suites every service has, for its vitest.config.ts: unit (pure functions),
 * integration (app.inject on real Postgres and Redis; each file makes its own database) and
 * browser (real HTTP, headless Chromium).
 */
export const serviceTestProjects = [
  { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
  {
    test: {
      name: 'integration',
      include: ['test/integration/**/*.test.ts'],
      environment: 'node',
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    test: {
      name: 'browser',
      include: ['test/browser/**/*.test.ts'],
      environment: 'node',
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  },
]
