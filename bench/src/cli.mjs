// pnpm bench [-- options]: the benchmark's command line (see README.md).
//   --list               scenario names, titles and targets
//   --only <name|prefix> run only these (repeat, or separate with commas)
//   --compare            the latest kept run against the previous and the best one
//   --no-build           measure what is built already (default: build the services first)
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { paths } from './config.mjs'

const USAGE = `usage: pnpm bench [-- --only <name or prefix>[,...]] [--no-build]
       pnpm bench --list | --compare | --help`

let args
try {
  // pnpm passes a `--` separator through: it is no option.
  ;({ values: args } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: {
      list: { type: 'boolean' },
      compare: { type: 'boolean' },
      only: { type: 'string', multiple: true },
      'no-build': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }))
} catch (error) {
  console.error(`${error.message}\n${USAGE}`)
  process.exit(2)
}

const { catalogue, select } = await import('./scenarios/index.mjs')

if (args.help) {
  console.log(USAGE)
} else if (args.list) {
  const { table } = await import('./report.mjs')
  console.log(
    table(
      [
        ['name', (i) => i.name, 'left'],
        ['what', (i) => i.title, 'left'],
        ['target', (i) => i.target, 'left'],
      ],
      catalogue(),
    ),
  )
} else if (args.compare) {
  const { compareRuns } = await import('./compare.mjs')
  const { readRuns } = await import('./results.mjs')
  console.log(compareRuns(await readRuns()))
} else {
  let selected
  try {
    selected = select((args.only ?? []).flatMap((entry) => entry.split(',')).filter(Boolean))
  } catch (error) {
    console.error(error.message)
    process.exit(2)
  }
  try {
    // Before building: without wrk there is nothing to measure.
    const { ensureWrk } = await import('./wrk.mjs')
    ensureWrk(console.log)
  } catch (error) {
    console.error(error.message)
    process.exit(1)
  }
  if (!args['no-build']) {
    // The services' production builds (turbo skips what is up to date).
    const built = spawnSync(
      join(paths.repo, 'node_modules', '.bin', 'turbo'),
      ['run', 'build', '--filter=@repo/bench...', '--output-logs=errors-only'],
      { cwd: paths.repo, stdio: 'inherit' },
    )
    if (built.status !== 0) {
      console.error('the build failed: nothing measured')
      process.exit(1)
    }
  }
  const { run } = await import('./run.mjs')
  process.exitCode = await run(selected)
}
