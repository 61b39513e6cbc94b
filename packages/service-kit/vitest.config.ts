import { defineConfig } from 'vitest/config'

// The kit's tests start real processes (Redis Clusters, PgBouncer, private Postgres and Redis) on a
// machine that may be busy: Vitest's 5 s default would fail a test for the machine's load, not for
// what it checks. Each wait inside a test keeps its own, shorter limit.
export default defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } })
