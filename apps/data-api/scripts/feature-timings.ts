import { FEATURES, type FeatureName } from '@repo/contracts'
import { loadAllFeatures, runFeature } from '../src/features/index.js'
import { INPUT_CLASS_NAMES, inputOf } from '../test/unit/features/input-classes.js'

const sizes = (process.env.SIZES ?? '102400,1048576').split(',').map(Number)
const only = process.env.FEATURES?.split(',') as FeatureName[] | undefined
const classes = process.env.CLASSES?.split(',') ?? INPUT_CLASS_NAMES
await loadAllFeatures()
for (const size of sizes) {
  for (const kind of classes) {
    const text = inputOf(kind as never, size)
    const row: string[] = [kind.padEnd(14)]
    for (const feature of only ?? FEATURES) {
      const before = process.cpuUsage()
      runFeature(feature, text, { feature })
      const used = process.cpuUsage(before)
      row.push(`${feature}=${Math.round((used.user + used.system) / 1000)}`)
    }
    console.log(size, row.join(' '))
  }
}
