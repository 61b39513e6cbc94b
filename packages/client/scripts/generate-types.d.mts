/** Writes src/generated/{quotes,data-api}.ts from openapi/*.json (see generate-types.mjs). */
export function generateClientTypes(): Promise<void>
