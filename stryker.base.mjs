// The StrykerJS settings every package's stryker*.config.mjs shares (run by `pnpm test:mutation`,
// scripts/test-mutation.ts). Each package names its run, the files it mutates and the tests that
// may kill them; everything else is here.
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = dirname(fileURLToPath(import.meta.url))

/** Where every run writes its reports and incremental file (git-ignored). */
export const reportsDir = join(root, 'reports', 'mutation')

/**
 * @param {object} run
 * @param {string} run.name        report folder under reports/mutation/ (e.g. `quotes-unit`)
 * @param {string[]} run.mutate    files to mutate, relative to the package
 * @param {string[]} run.tests    the test files that may run (globs, relative to the package)
 * @param {number} [run.concurrency] workers (the machine has 2 shared cores)
 * @returns {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export function strykerConfig({ name, mutate, tests, concurrency = 2 }) {
  const out = join(reportsDir, name)
  // Read by vitest.mutation.config.ts in Stryker's workers (they inherit the environment).
  // MUTATION_ONLY_TESTS (pnpm test:mutation --tests) narrows a run to some of its test files: a
  // quicker run whose score is a lower bound of the whole suite's.
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by scripts/test-mutation.ts, not a turbo task
  process.env.MUTATION_TESTS = process.env.MUTATION_ONLY_TESTS || tests.join(',')
  return {
    // pnpm's layout hides @stryker-mutator/* from the package's node_modules: name the runner
    // by its resolved entry file (installed at the root).
    plugins: [fileURLToPath(import.meta.resolve('@stryker-mutator/vitest-runner'))],
    testRunner: 'vitest',
    vitest: { configFile: join(root, 'vitest.mutation.config.ts') },
    mutate,
    // TypeScript 7 has no JavaScript API for Stryker's tsconfig rewriting: name no tsconfig, and
    // put the sandboxes in <root>/.stryker-tmp-<run>/sandbox-*, as deep as every package (apps/x,
    // packages/x), so `extends: ../../tsconfig.base.json` still finds the root's file. One
    // folder per run, so two runs can go at once.
    tsconfigFile: 'no-tsconfig-rewrite.json',
    tempDirName: relative(process.cwd(), join(root, `.stryker-tmp-${name}`)),
    coverageAnalysis: 'perTest',
    concurrency,
    timeoutMS: 10_000,
    // The first run under instrumentation is slow on a loaded 2-core machine.
    dryRunTimeoutMinutes: 20,
    incremental: true,
    incrementalFile: join(out, 'incremental.json'),
    reporters: ['html', 'json', 'clear-text', 'progress'],
    htmlReporter: { fileName: join(out, 'index.html') },
    jsonReporter: { fileName: join(out, 'mutation.json') },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    cleanTempDir: 'always',
    thresholds: { high: 90, low: 85, break: null },
  }
}
