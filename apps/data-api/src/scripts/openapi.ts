// Prints the service's OpenAPI document (as served at /docs/json) without Postgres or Redis.
// Run by `pnpm openapi` (scripts/openapi.ts) with the `source` condition: no build needed.
import { describeService } from '@repo/service-kit'
import app from '../app.js'
import { loadDataApiConfig } from '../config.js'

// The defaults, not this shell's environment: the document must not depend on who generates it.
const document = await describeService(app, loadDataApiConfig({ EMBEDDED_STORES: 'off' }))
process.stdout.write(`${JSON.stringify(document, null, 2)}\n`)
