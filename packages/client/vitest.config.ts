import { defineConfig } from 'vitest/config'

// quotes-service.test.ts starts the real quotes app on a fresh database (migrated and seeded).
export default defineConfig({ test: { hookTimeout: 120_000, testTimeout: 30_000 } })
