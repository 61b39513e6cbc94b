import { readFileSync } from 'node:fs'
import type { TObject } from 'typebox'

/** `.env.example`'s settings by section (`# [both]`, `# [quotes]`, ...): name → value. */
function sections(path: string): Map<string, Map<string, string>> {
  const found = new Map<string, Map<string, string>>()
  let current: Map<string, string> | undefined
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const header = /^# \[([a-z-]+)\]/.exec(line)
    if (header) {
      current = new Map()
      found.set(header[1] as string, current)
      continue
    }
    const setting = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line)
    if (setting) current?.set(setting[1] as string, setting[2] as string)
  }
  return found
}

/**
 * What `.env.example` gets wrong about a service's configuration schema: a setting missing
 * from the `[both]` and `[<service>]` sections, written with another value than its default
 * (empty for none), or listed in the service's section without being a setting.
 */
export function envExampleProblems(schema: TObject, service: string, path: string): string[] {
  const all = sections(path)
  const both = all.get('both') ?? new Map<string, string>()
  const own = all.get(service) ?? new Map<string, string>()
  const problems: string[] = []
  if (!all.has(service)) problems.push(`no "# [${service}]" section`)
  const properties = schema.properties as Record<string, { default?: unknown }>
  for (const [name, property] of Object.entries(properties)) {
    const expected = property.default === undefined ? '' : String(property.default)
    const written = own.get(name) ?? both.get(name)
    if (written === undefined) problems.push(`${name} is missing`)
    else if (written !== expected)
      problems.push(`${name}=${written}, but its default is "${expected}"`)
  }
  for (const name of own.keys()) {
    if (!(name in properties)) problems.push(`${name} is not a setting of ${service}`)
  }
  return problems
}
