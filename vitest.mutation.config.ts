// The vitest config of Stryker's runs (stryker.base.mjs): the test files a package's stryker
// config names (MUTATION_TESTS, comma-separated globs, `!` excludes), as the services' `unit` or
// `integration` project would run them. Stryker 10.1's own test filter
// (testFiles) cannot be used: it activates static mutants too late (stryker-js issue 6144).
import { defineConfig } from 'vitest/config'

// biome-ignore lint/suspicious/noUndeclaredEnvVars: set by stryker.base.mjs, not a turbo task
const tests = (process.env.MUTATION_TESTS ?? 'test/**/*.test.ts').split(',')

export default defineConfig({
  test: {
    include: tests.filter((glob) => !glob.startsWith('!')),
    exclude: tests.filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1)),
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
