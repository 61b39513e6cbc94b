// Small schema builders shared by the contract files (not exported from the package).
import { Type } from 'typebox'

/** A non-negative integer count. */
export const Count = (description: string) => Type.Integer({ minimum: 0, description })

/** A list of distinct words. */
export const Words = (description: string) =>
  Type.Array(Type.String(), { description, uniqueItems: true })
