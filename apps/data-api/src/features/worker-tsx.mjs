// The worker entry when the pool runs from the TypeScript sources (vitest, `tsx src/server.ts`):
// worker threads do not inherit the parent's loaders, so this registers tsx in the worker and
// loads worker.ts through it. The build runs dist/features/worker.js directly, without tsx.
import { register } from 'tsx/esm/api'

register()
const worker = await import('./worker.ts')

export default worker.default
