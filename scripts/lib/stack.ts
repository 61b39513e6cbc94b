import { type Compose, ensureEngine } from './compose.js'
import type { Run } from './run.js'

export interface StackOptions {
  /** Leave the stack running at the end (--keep-up). */
  keepUp: boolean
  /** `down -v` at the end instead of `down`. */
  deleteVolumes: boolean
}

/**
 * The opening of a proof on a compose stack: an engine (the sandbox started when needed), the
 * versions logged, the stack's services; and its `down` registered to run at the end whatever
 * happens. Resolves to the services.
 */
export async function openStack(run: Run, compose: Compose, opts: StackOptions): Promise<string[]> {
  run.log(`engine: ${await ensureEngine((m) => run.log(m))}; compose ${await compose.version()}`)
  const services = await compose.services()
  run.onCleanUp(async () => {
    if (opts.keepUp) return run.log('--keep-up: the stack is left running')
    await compose.down(opts.deleteVolumes)
    run.log(`stack down, volumes ${opts.deleteVolumes ? 'deleted' : 'kept'}`)
  })
  return services
}
