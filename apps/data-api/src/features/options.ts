import {
  FEATURE_OPTIONS,
  FEATURES,
  type FeatureName,
  type FeatureOptionsMap,
} from '@repo/contracts'
import type { TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'

/*
 * Options of a feature request: validated against the feature's own schema (compiled once,
 * here), with the defaults filled in. This runs where the request is handled (the main
 * thread), so that bad options are a 400 at once and never take a worker's time.
 */

/** The options do not fit the feature's schema; the message says which option and why. */
export class FeatureOptionsError extends Error {
  override name = 'FeatureOptionsError'
}

interface Entry {
  validator: Validator
  /** Whether any option has a default (if not, there is nothing to fill in). */
  hasDefaults: boolean
  /** The options besides `feature`, for messages. */
  optionNames: string[]
  properties: Record<string, TSchema>
}

const ENTRIES = Object.fromEntries(
  FEATURES.map((feature) => {
    const schema = FEATURE_OPTIONS[feature]
    const properties = schema.properties as Record<string, TSchema>
    const entry: Entry = {
      validator: Compile(schema),
      hasDefaults: Object.values(properties).some((property) => 'default' in property),
      optionNames: Object.keys(properties).filter((name) => name !== 'feature'),
      properties,
    }
    return [feature, entry]
  }),
) as Record<FeatureName, Entry>

// ---------------------------------------------------------------------------------------------
// messages

const list = (values: readonly unknown[]) => values.map((value) => String(value)).join(', ')

function preview(value: unknown): string {
  let text: string
  try {
    text = value === undefined ? 'undefined' : JSON.stringify(value)
  } catch {
    // A list nested 100,000 deep parses (JSON.parse does not recurse) but overflows the stack here.
    return 'a value nested too deeply to show'
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

/** What a value must be, in words, read from its JSON Schema. */
export function expectation(schema: TSchema): string {
  const s = schema as Record<string, unknown>
  if (Array.isArray(s.enum)) return `one of ${list(s.enum)}`
  if (s.const !== undefined) return `"${String(s.const)}"`
  switch (s.type) {
    case 'integer':
    case 'number': {
      const kind = s.type === 'integer' ? 'an integer' : 'a number'
      if (typeof s.minimum === 'number' && typeof s.maximum === 'number') {
        return `${kind} from ${s.minimum} to ${s.maximum}`
      }
      if (typeof s.minimum === 'number') return `${kind} of at least ${s.minimum}`
      if (typeof s.maximum === 'number') return `${kind} of at most ${s.maximum}`
      return kind
    }
    case 'string':
      if (s.maxLength === 1) return 'a single character other than a space'
      return 'a string'
    case 'boolean':
      return 'true or false'
    case 'array': {
      const items = s.items as Record<string, unknown> | undefined
      const among = Array.isArray(items?.enum) ? ` among ${list(items.enum)}` : ''
      const distinct = s.uniqueItems === true ? 'distinct ' : ''
      const nonEmpty = typeof s.minItems === 'number' && s.minItems > 0 ? 'non-empty ' : ''
      return `a ${nonEmpty}list of ${distinct}values${among}`
    }
    default:
      return 'valid'
  }
}

/** Unknown options named in a message at most; a body may carry hundreds of thousands. */
export const UNKNOWN_OPTIONS_NAMED = 5

/**
 * The first names in `options` that are not options of the feature (at most
 * UNKNOWN_OPTIONS_NAMED, and whether there are more). It stops at the first ones: options
 * with 120,000 names cost about 350 ms a body to copy, check and explain (the schema's check and
 * error list walk every name), all on the event loop.
 */
function unknownOptions(entry: Entry, options: Record<string, unknown>) {
  const names: string[] = []
  for (const name in options) {
    if (Object.hasOwn(entry.properties, name)) continue
    if (names.length === UNKNOWN_OPTIONS_NAMED) return { names, more: true }
    names.push(name)
  }
  return { names, more: false }
}

/**
 * The first option whose value no schema's check should see: a list longer than its schema's
 * `maxItems`, or a list or object holding a list or object (no option takes one). TypeBox's
 * error for `uniqueItems` copies its list of duplicates once per duplicate: 200,000 equal `kinds`
 * took four minutes of the event loop to explain (200,000 distinct ones 0.3 s). And the check,
 * the error list and a message's preview recurse: a value nested 100,000 deep overflowed the
 * stack, a 500. Linear in the options' own members; nothing nested is walked.
 */
function misshapenOption(entry: Entry, options: Record<string, unknown>): string | undefined {
  for (const name of entry.optionNames) {
    const value = options[name]
    if (typeof value !== 'object' || value === null) continue
    const maxItems = (entry.properties[name] as { maxItems?: unknown }).maxItems
    if (typeof maxItems === 'number' && Array.isArray(value) && value.length > maxItems) return name
    for (const item of Object.values(value)) {
      if (typeof item === 'object' && item !== null) return name
    }
  }
  return undefined
}

function unknownMessage(feature: FeatureName, entry: Entry, names: string[], more: boolean) {
  // JSON-quoted and clipped to 40 characters: a name can be as long as the body.
  const named = names.map(preview).join(', ')
  const plural = names.length > 1 ? 's' : ''
  const unknown = `Unknown option${plural} ${named}${more ? ' and more' : ''} for the ${feature} feature.`
  return entry.optionNames.length === 0
    ? `${unknown} The ${feature} feature takes no options besides "feature".`
    : `${unknown} Its options are: ${list(entry.optionNames)}.`
}

function optionMessage(feature: FeatureName, schema: TSchema, key: string, value: unknown) {
  return `Option "${key}" of the ${feature} feature must be ${expectation(schema)}; got ${preview(value)}.`
}

function explain(feature: FeatureName, entry: Entry, options: unknown): string {
  const errors = entry.validator.Errors(options)
  for (const error of errors) {
    const key = error.instancePath.split('/')[1]
    if (key === undefined || key === '') continue
    const schema = entry.properties[key]
    if (schema === undefined) continue
    return optionMessage(feature, schema, key, (options as Record<string, unknown>)[key])
  }
  const first = errors[0]
  return `Invalid options for the ${feature} feature${first ? `: ${first.message}` : ''}.`
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Validates `rawOptions` (the request's `options`, `feature` included; missing or without
 * `feature` is taken as no options) and returns them with the defaults filled in. Throws
 * FeatureOptionsError when the options are invalid.
 */
export function validateOptions<F extends FeatureName>(
  feature: F,
  rawOptions: unknown,
): FeatureOptionsMap[F] {
  const entry = ENTRIES[feature]
  if (entry === undefined) {
    throw new FeatureOptionsError(
      `There is no feature "${feature}". Choose one of: ${list(FEATURES)}.`,
    )
  }
  if (rawOptions !== undefined && rawOptions !== null && !isPlainObject(rawOptions)) {
    throw new FeatureOptionsError('options must be an object such as { "feature": "stats" }.')
  }
  if (rawOptions) {
    const { names, more } = unknownOptions(entry, rawOptions)
    if (names.length > 0) throw new FeatureOptionsError(unknownMessage(feature, entry, names, more))
    const misshapen = misshapenOption(entry, rawOptions)
    if (misshapen !== undefined) {
      const schema = entry.properties[misshapen] as TSchema
      throw new FeatureOptionsError(
        optionMessage(feature, schema, misshapen, rawOptions[misshapen]),
      )
    }
  }
  const options: Record<string, unknown> = { ...(rawOptions ?? {}) }
  if (options.feature === undefined) options.feature = feature
  else if (options.feature !== feature) {
    throw new FeatureOptionsError(
      `options.feature is ${preview(options.feature)} but the feature run is "${feature}".`,
    )
  }
  if (!entry.validator.Check(options)) {
    throw new FeatureOptionsError(explain(feature, entry, options))
  }
  return (entry.hasDefaults ? entry.validator.Default(options) : options) as FeatureOptionsMap[F]
}
