import { defineConfig } from 'vitest/config'

// Black-box tests over real HTTP against QUOTES_URL and DATA_API_URL (defaults: localhost:3000
// and localhost:3001). Nothing is started here: see scripts/run-against-builds.mjs for that.
export default defineConfig({
  test: {
    include: ['test/**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Real services: a retry would hide a flaky service, so none.
    retry: 0,
  },
})
