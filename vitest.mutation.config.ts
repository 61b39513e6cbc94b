// The vitest config of Stryker's runs (stryker.base.mjs): the tests under one folder of the
// package being mutated (MUTATION_TEST_DIR, set by the package's stryker config), as the
// services' `unit` or `integration` project would run them. Stryker 10.1's own test filter
// (testFiles) cannot be used: it activates static mutants too late (stryker-js issue 6144).
import { defineConfig } from 'vitest/config'

const dir = process.env.MUTATION_TEST_DIR ?? 'test'

export default defineConfig({
  test: {
    include: [`${dir}/**/*.test.ts`],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
