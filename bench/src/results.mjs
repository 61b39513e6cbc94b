// The results directory: one JSON file per run, named by its start time, never overwritten.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { paths } from './config.mjs'

/** `2025-01-31T12:00:00.000Z` → `2025-01-31T12-00-00.000Z.json` (no `:` in file names). */
const fileOf = (startedAt) => `${startedAt.replace(/:/g, '-')}.json`

/** Writes the run's file; resolves to its path. */
export async function writeRun(report) {
  await mkdir(paths.results, { recursive: true })
  const file = join(paths.results, fileOf(report.startedAt))
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`)
  return file
}

/** Every kept run, oldest first; files that cannot be read are skipped with a warning. */
export async function readRuns() {
  let names
  try {
    names = await readdir(paths.results)
  } catch (error) {
    if (error.code === 'ENOENT') return []
    throw error
  }
  const runs = []
  for (const name of names.filter((n) => /^\d{4}-\d\d-\d\dT.*\.json$/.test(n)).sort()) {
    try {
      runs.push({ file: name, ...JSON.parse(await readFile(join(paths.results, name), 'utf8')) })
    } catch (error) {
      console.warn(`skipping results/${name}: ${error.message}`)
    }
  }
  return runs.sort((a, b) => String(a.startedAt).localeCompare(String(b.startedAt)))
}
