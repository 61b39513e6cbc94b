// '@repo/service-kit/vitest': the testing helpers that register vitest hooks or tests, for test
// files only ('@repo/service-kit/testing' has the rest, usable anywhere).
export { usePgBouncer, useTestDatabase } from './hooks.js'
export {
  describeReplicasBehindPgBouncer,
  expectThreeStarted,
  type PgBouncerSuiteOptions,
  type ReplicasCheck,
} from './pgbouncer-suite.js'
export {
  expectClampedLimit,
  expectEveryQuoteFirstPage,
  expectFirstPage,
  expectMatchesInIdOrder,
  expectNoMatch,
  expectPlainResults,
  expectSearchHtml,
  expectSearchPage,
} from './search-expectations.js'
