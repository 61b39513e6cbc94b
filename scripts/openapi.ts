/**
 * pnpm openapi: writes both services' OpenAPI documents (openapi/quotes.json,
 * openapi/data-api.json) as the code generates them, then the typed client's types from them
 * (packages/client/scripts/generate-types.mjs; git-ignored, also made on install). No database,
 * no build: each app is built with `describeOnly` from its sources (the `source` export
 * condition).
 *
 * With --check (pnpm lint:openapi), the documents are compared with the committed files instead
 * of written: a difference fails (run `pnpm openapi`). pnpm lint:openapi then lints the documents
 * with Redocly (redocly.yaml: `recommended`, warnings counted as errors).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { generateClientTypes } from '../packages/client/scripts/generate-types.mjs'
import { exec } from './lib/exec.js'

const ROOT = join(import.meta.dirname, '..')
const SERVICES = [
  { name: 'quotes', app: 'apps/quotes' },
  { name: 'data-api', app: 'apps/data-api' },
] as const
const args = process.argv.slice(2)
if (args.some((arg) => arg !== '--check')) {
  process.stderr.write('usage: tsx scripts/openapi.ts [--check]\n')
  process.exit(2)
}
const check = args.includes('--check')
const drift: string[] = []

/** Writes `text` to `path`, or (--check) records the path when its committed text differs. */
async function emit(path: string, text: string) {
  if (!check) return writeFile(join(ROOT, path), text)
  const committed = await readFile(join(ROOT, path), 'utf8').catch(() => undefined)
  if (committed !== text) drift.push(path)
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`)
  process.exit(1)
}

// 1. The documents, as each service serves them at /docs/json.
const documents = await Promise.all(
  SERVICES.map(async ({ name, app }) => {
    const out = await exec(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'src/scripts/openapi.ts'],
      { cwd: join(ROOT, app), timeoutMs: 120_000 },
    )
    if (out.code !== 0) fail(`describing ${name} failed (exit ${out.code}):\n${out.stderr}`)
    return { name, path: `openapi/${name}.json`, text: out.stdout }
  }),
)
for (const document of documents) await emit(document.path, document.text)

// 2. The client's types, from the documents just written.
if (!check) await generateClientTypes()

if (drift.length > 0) {
  fail(
    `Out of date with the code: ${drift.join(', ')}.\nRun \`pnpm openapi\` and commit the result.`,
  )
}

const written = `wrote ${documents.map((d) => d.path).join(', ')} and the client's types`
process.stdout.write(`${check ? `checked ${documents.map((d) => d.path).join(', ')}` : written}\n`)
