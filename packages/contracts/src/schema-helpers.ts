// Small schema builders shared by the contract files (not exported from the package).
import { type TObjectOptions, type TProperties, Type } from 'typebox'

/** `keywords` → `Keywords`: a feature's name as the start of its schemas' names. */
export const capitalised = (name: string) => `${name[0]?.toUpperCase()}${name.slice(1)}`

/** A non-negative integer count. */
export const Count = (description: string) => Type.Integer({ minimum: 0, description })

/** A list of distinct words. */
export const Words = (description: string) =>
  Type.Array(Type.String(), { description, uniqueItems: true })

/** A named object schema (`$id`, the name OpenAPI shows) that refuses unknown properties. */
export const Closed = <P extends TProperties>(
  $id: string,
  properties: P,
  options: Omit<TObjectOptions, '$id' | 'additionalProperties'> = {},
) => Type.Object(properties, { ...options, $id, additionalProperties: false })

/**
 * A feature's options: `{ feature: '<name>', ...own }`, named `<Name>Options`. A feature
 * without options of its own says so in its description.
 */
export const FeatureOptions = <F extends string, P extends TProperties = Record<never, never>>(
  feature: F,
  own: P = {} as P,
) =>
  Closed(
    `${capitalised(feature)}Options`,
    { feature: Type.Literal(feature), ...own },
    Object.keys(own).length === 0 ? { description: `${feature} takes no options` } : {},
  )

/** The bounds and default of a whole-number option. */
export interface CountRange {
  minimum: number
  maximum: number
  default: number
}

/** An optional whole-number option within `range`, `what` saying what it counts. */
export const CountOption = (what: string, range: CountRange) =>
  Type.Optional(
    Type.Integer({
      ...range,
      description: `How many ${what}, ${range.minimum} to ${range.maximum} (default ${range.default})`,
    }),
  )
