/*
 * CPU milliseconds of each feature on each input class, at 100 KB and 1 MB (SPEC section 3:
 * every feature linear in its input on every script, 1 MB well under a second). Run with
 *   pnpm --filter @repo/data-api exec tsx scripts/feature-timings.ts
 * Each figure is the median of ROUNDS runs (default 3) of the feature in this thread, measured
 * with process.cpuUsage (user + system), after every feature has run once on a small text (so
 * that loading the libraries is not counted). SIZES, FEATURES and CLASSES (comma-separated)
 * narrow the run. The tests prove linearity by work counters; timing belongs here.
 */
import { FEATURES, type FeatureName } from '@repo/contracts'
import { loadAllFeatures, runFeature } from '../src/features/index.js'
import { INPUT_CLASS_NAMES, type InputClass, inputOf } from '../test/support/input-classes.js'

const list = (name: string) => process.env[name]?.split(',').filter(Boolean)
const sizes = (list('SIZES') ?? ['102400', '1048576']).map(Number)
const features = (list('FEATURES') ?? FEATURES) as FeatureName[]
const classes = (list('CLASSES') ?? INPUT_CLASS_NAMES) as InputClass[]
const rounds = Number(process.env.ROUNDS ?? 3)

function cpuMs(task: () => void): number {
  const before = process.cpuUsage()
  task()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

await loadAllFeatures()
const warmUp = inputOf('mixed', 20_000)
for (const feature of FEATURES) runFeature(feature, warmUp, { feature })

const header = ['input class', ...features]
console.log(`CPU ms per call (median of ${rounds}), Node ${process.versions.node}\n`)
for (const size of sizes) {
  console.log(`### ${size >= 1 << 20 ? `${size / (1 << 20)} MB` : `${size / 1024} KB`}\n`)
  console.log(`| ${header.join(' | ')} |`)
  console.log(`|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`)
  for (const kind of classes) {
    const text = inputOf(kind, size)
    const row = features.map((feature) => {
      const times = Array.from({ length: rounds }, () =>
        cpuMs(() => runFeature(feature, text, { feature })),
      )
      return String(Math.round(median(times)))
    })
    console.log(`| ${kind} | ${row.join(' | ')} |`)
  }
  console.log()
}
