/**
 * The worker's entry beside the pool module at `poolUrl`: the compiled worker.js in the build;
 * from the TypeScript sources (pool.ts), a small shim that loads worker.ts through tsx.
 */
export function workerEntry(poolUrl: string): URL {
  return new URL(poolUrl.endsWith('.ts') ? './worker-tsx.mjs' : './worker.js', poolUrl)
}
