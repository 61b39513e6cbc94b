import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadAllFeatures, runFeature } from '../../../src/features/index.js'

/*
 * The pool as production runs it: the package compiled by tsc (as `pnpm build` does, into a
 * scratch directory inside the package so that its dependencies resolve), then loaded by a
 * plain `node` process without tsx: the worker is dist's worker.js.
 */

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../..', import.meta.url))
const TEXT = 'Write to a.b@example.com.\n\nBarack Obama visited Paris. I love it!'
let out: string

beforeAll(async () => {
  out = await mkdtemp(join(root, 'node_modules', '.cache-pool-dist-'))
  const tsc = join(root, 'node_modules', '.bin', 'tsc')
  await run(tsc, ['-p', 'tsconfig.build.json', '--outDir', out], { cwd: root })
  await loadAllFeatures()
}, 120_000)

afterAll(async () => {
  await rm(out, { recursive: true, force: true })
})

describe('the feature pool, built', () => {
  it('has no tsx shim in the build, only the compiled worker', async () => {
    const files = await readdir(join(out, 'features'))
    expect(files).toContain('worker.js')
    expect(files).toContain('pool.js')
    expect(files.filter((file) => file.endsWith('.mjs'))).toEqual([])
  })

  it('runs features in worker threads from plain node', async () => {
    const pool = pathToFileURL(join(out, 'features', 'pool.js')).href
    const script = `
      const { createFeaturePool } = await import(${JSON.stringify(pool)})
      const pool = createFeaturePool({ threads: 1, maxQueue: 4, timeoutMs: 30000 })
      const text = ${JSON.stringify(TEXT)}
      const results = {}
      for (const feature of ['stats', 'redact', 'entities']) results[feature] = await pool.run(feature, text, undefined)
      await pool.close()
      process.stdout.write(JSON.stringify(results))
    `
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      timeout: 60_000,
    })
    expect(JSON.parse(stdout)).toEqual({
      stats: runFeature('stats', TEXT, undefined),
      redact: runFeature('redact', TEXT, undefined),
      entities: runFeature('entities', TEXT, undefined),
    })
  }, 90_000)
})
