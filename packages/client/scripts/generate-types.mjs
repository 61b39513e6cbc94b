/**
 * Writes the client's types, src/generated/{quotes,data-api}.ts, from the committed OpenAPI
 * documents (openapi/*.json) with openapi-typescript. The documents are the one committed source:
 * the types are git-ignored and made again on every `pnpm install` (this package's postinstall)
 * and by `pnpm openapi` after a route's schema changes.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'

const DOCUMENTS = new URL('../../../openapi/', import.meta.url)
const OUT = new URL('../src/generated/', import.meta.url)

export async function generateClientTypes() {
  await mkdir(OUT, { recursive: true })
  for (const name of ['quotes', 'data-api']) {
    const document = JSON.parse(await readFile(new URL(`${name}.json`, DOCUMENTS), 'utf8'))
    const ast = await openapiTS(document, { alphabetize: true })
    const header = `// Generated from openapi/${name}.json by packages/client/scripts/generate-types.mjs: do not edit.\n`
    await writeFile(new URL(`${name}.ts`, OUT), header + astToString(ast))
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await generateClientTypes()
