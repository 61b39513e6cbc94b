// Progress lines of a run, each with the time elapsed since the benchmark started.
import { performance } from 'node:perf_hooks'

const started = performance.now()

export function progress(line) {
  const seconds = Math.round((performance.now() - started) / 1000)
  const clock = `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`
  console.log(`[${clock}] ${line}`)
}
