/**
 * The per-file table of pnpm test:mutation. Each run's JSON report covers the files that run
 * mutated this time (one file with --mutate), so every report is first merged into
 * reports/mutation/files.json (one entry per file, the latest run's), and the table is printed
 * from that.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isMutated, mutateGlobs, RUNS } from './runs.js'

interface Mutant {
  status: string
}
interface Report {
  files: Record<string, { mutants: Mutant[] }>
}
export interface FileScore {
  killed: number
  timeout: number
  survived: number
  noCoverage: number
  errors: number
  ignored: number
  run: string
  at: string
}

export function countMutants(mutants: Mutant[]): Omit<FileScore, 'run' | 'at'> {
  const count = (...statuses: string[]) =>
    mutants.filter((mutant) => statuses.includes(mutant.status)).length
  return {
    killed: count('Killed'),
    timeout: count('Timeout'),
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    errors: count('RuntimeError', 'CompileError'),
    ignored: count('Ignored'),
  }
}

/** Stryker's mutation score: detected / (detected + undetected), errors and ignored left out. */
export function score(file: Omit<FileScore, 'run' | 'at'>): number {
  const detected = file.killed + file.timeout
  const valid = detected + file.survived + file.noCoverage
  return valid === 0 ? 100 : (100 * detected) / valid
}

/**
 * Merges every run's mutation.json into files.json, keeping only the files a run's config
 * mutates today (a report can still list files dropped from the run); returns the entries.
 */
export async function mergeReports(root: string): Promise<Record<string, FileScore>> {
  const reportsDir = join(root, 'reports', 'mutation')
  const mergedPath = join(reportsDir, 'files.json')
  const merged: Record<string, FileScore> = existsSync(mergedPath)
    ? JSON.parse(readFileSync(mergedPath, 'utf8'))
    : readmeTable(join(root, 'README.md'))
  const owned = new Map<string, (file: string) => boolean>()
  for (const run of RUNS) {
    const globs = await mutateGlobs(root, run)
    owned.set(run.name, (file) => isMutated(globs, file))
  }
  for (const [key, entry] of Object.entries(merged)) {
    const pkg = runPackage(entry.run)
    if (!owned.get(entry.run)?.(key.slice(pkg.length + 1))) delete merged[key]
  }
  if (!existsSync(reportsDir)) return merged
  for (const run of readdirSync(reportsDir)) {
    const reportPath = join(reportsDir, run, 'mutation.json')
    if (!existsSync(reportPath)) continue
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report
    // A report newer than the entry (or of another run) replaces it.
    const at = statSync(reportPath).mtime.toISOString()
    const pkg = runPackage(run)
    for (const [file, { mutants }] of Object.entries(report.files)) {
      if (!owned.get(run)?.(file)) continue
      const key = `${pkg}/${file}`
      const previous = merged[key]
      if (previous && previous.at >= at) continue
      merged[key] = { ...countMutants(mutants), run, at }
    }
  }
  writeFileSync(mergedPath, `${JSON.stringify(merged, null, 2)}\n`)
  return merged
}

const START = '<!-- mutation-table:start -->'
const END = '<!-- mutation-table:end -->'
/** Older than any report: a file measured again replaces its README row. */
const README_AT = new Date(0).toISOString()

/**
 * The README's table as merged entries: files.json lives under the git-ignored reports/, so a
 * fresh clone starts from the last published figures, and a run of one file updates one row.
 */
export function readmeTable(readme: string): Record<string, FileScore> {
  const entries: Record<string, FileScore> = {}
  if (!existsSync(readme)) return entries
  const table = readFileSync(readme, 'utf8').split(START)[1]?.split(END)[0] ?? ''
  const row = /^\| (\S+) \| [\d.]+%(?: ✗)? \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\S+) \|$/
  for (const line of table.split('\n')) {
    const match = row.exec(line)
    if (!match) continue
    const [, file = '', killed, timeout, survived, noCoverage, run = ''] = match
    entries[file] = {
      killed: Number(killed),
      timeout: Number(timeout),
      survived: Number(survived),
      noCoverage: Number(noCoverage),
      errors: 0,
      ignored: 0,
      run,
      at: README_AT,
    }
  }
  return entries
}

function runPackage(run: string): string {
  return RUNS.find((entry) => entry.name === run)?.dir ?? run
}

/** The Markdown table of the merged figures (files under 85% marked ✗). */
export function reportTable(merged: Record<string, FileScore>): string {
  const lines = [
    '| file | score | killed | timeout | survived | no coverage | run |',
    '|---|---:|---:|---:|---:|---:|---|',
  ]
  for (const file of Object.keys(merged).sort()) {
    const entry = merged[file] as FileScore
    const cells = [entry.killed, entry.timeout, entry.survived, entry.noCoverage]
    const mark = score(entry) >= 85 ? '' : ' ✗'
    lines.push(
      `| ${file} | ${score(entry).toFixed(1)}%${mark} | ${cells.join(' | ')} | ${entry.run} |`,
    )
  }
  return lines.join('\n')
}

/**
 * Prints the table; with `readme`, also writes it into that file between the
 * mutation-table:start and :end markers. Returns 0 (1 when there is no report yet).
 */
export async function printReportTable(root: string, readme?: string): Promise<number> {
  const merged = await mergeReports(root)
  if (Object.keys(merged).length === 0) {
    console.error('test:mutation: no report yet under reports/mutation/ (run pnpm test:mutation)')
    return 1
  }
  const table = reportTable(merged)
  console.log(table)
  if (readme !== undefined) {
    const text = readFileSync(readme, 'utf8')
    const [before, rest] = text.split(START)
    const after = rest?.split(END)[1]
    if (before === undefined || after === undefined)
      throw new Error(`no table markers in ${readme}`)
    writeFileSync(readme, `${before}${START}\n${table}\n${END}${after}`)
  }
  return 0
}
