/**
 * pnpm test:mutation: StrykerJS over every package with logic, one run after the other (not part
 * of .ci/run or pnpm test: it is slow). Each package has a stryker.config.mjs (its pure files and
 * the tests that need no Postgres or Redis) and, where some files need the stores, a
 * stryker.integration.config.mjs (those files, the integration suite, one worker). Runs are
 * incremental: a re-run tests only mutants whose code or tests changed. Reports (HTML, JSON,
 * incremental files) go to reports/mutation/<run>/ (git-ignored).
 *
 * Usage: pnpm test:mutation [--only <run>] [--mutate <file>]... [--tests <glob>]... [--force]
 *        [--report-table [--readme]]
 *   --only <run>      one run (repeatable): contracts, service-kit-unit, quotes-unit, ...
 *   --mutate <file>   only this file (path from the repository root; repeatable); only the runs
 *                     that mutate it run
 *   --tests <glob>    only these test files (relative to the run's package; repeatable): for an
 *                     integration run, the files that exercise the mutated one. Fewer tests can
 *                     only kill fewer mutants, so the score is a lower bound of the suite's.
 *   --force           ignore the incremental files (test every mutant again)
 *   --report-table    print the per-file table (Markdown) from the JSON reports; runs nothing
 *   --readme          with --report-table: also write the table into README.md
 *   --list            name the runs
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { printReportTable } from './mutation/report-table.js'
import { isMutated, mutateGlobs, RUNS } from './mutation/runs.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

function parseArgs(argv: string[]) {
  const only: string[] = []
  const mutate: string[] = []
  const tests: string[] = []
  let force = false
  let table = false
  let list = false
  let readme = false
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]
    const value = () => {
      const next = argv[++i]
      if (next === undefined) throw new Error(`${arg} needs a value`)
      return next
    }
    if (arg === '--only') only.push(value())
    else if (arg === '--mutate') mutate.push(value())
    else if (arg === '--tests') tests.push(value())
    else if (arg === '--force') force = true
    else if (arg === '--report-table') table = true
    else if (arg === '--list') list = true
    else if (arg === '--readme') readme = true
    else if (arg !== '--') throw new Error(`unknown argument ${arg} (see scripts/test-mutation.ts)`)
  }
  for (const name of only) {
    if (!RUNS.some((run) => run.name === name)) throw new Error(`no run named ${name}`)
  }
  return { only, mutate, tests, force, table, list, readme }
}

function sh(command: string, args: string[], cwd: string): number {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' })
  return result.status ?? 1
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2))
  if (options.list) {
    for (const run of RUNS) console.log(`${run.name}\t${run.dir}/${run.config}`)
    return 0
  }
  if (options.table) {
    return printReportTable(ROOT, options.readme ? join(ROOT, 'README.md') : undefined)
  }

  const runs = []
  for (const run of RUNS) {
    if (options.only.length > 0 && !options.only.includes(run.name)) continue
    const globs = await mutateGlobs(ROOT, run)
    const files = options.mutate
      .map((file) => relative(run.dir, file))
      .filter((file) => !file.startsWith('..') && isMutated(globs, file))
    if (options.mutate.length === 0 || files.length > 0) runs.push({ run, files })
  }
  if (runs.length === 0) {
    console.error('test:mutation: no run mutates those files (--list names the runs)')
    return 2
  }
  // The apps' tests import the workspace packages' built output.
  if (sh('pnpm', ['turbo', 'run', 'build', '--filter=@repo/service-kit...'], ROOT) !== 0) return 1
  const stryker = join(ROOT, 'node_modules', '.bin', 'stryker')
  // Read by stryker.base.mjs when each run's config is loaded (in Stryker's process).
  if (options.tests.length > 0) process.env.MUTATION_ONLY_TESTS = options.tests.join(',')
  const failed: string[] = []
  for (const { run, files } of runs) {
    const dir = join(ROOT, run.dir)
    if (!existsSync(join(dir, run.config))) throw new Error(`missing ${run.dir}/${run.config}`)
    console.log(`\n==> mutation: ${run.name} (${run.dir}/${run.config})`)
    const args = ['run', run.config, ...(options.force ? ['--force'] : [])]
    // Stryker reads one --mutate: a comma-separated list.
    if (files.length > 0) args.push('--mutate', files.join(','))
    if (sh(stryker, args, dir) !== 0) failed.push(run.name)
  }
  await printReportTable(ROOT)
  if (failed.length > 0) console.error(`test:mutation: runs failed: ${failed.join(', ')}`)
  return failed.length > 0 ? 1 : 0
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: Error) => {
    console.error(`test:mutation: ${error.message}`)
    process.exitCode = 2
  },
)
