import { BodyTextError, jsonBodyValue } from '../lib/json-text.js'

/*
 * A large request body read on a feature thread (lib/json-body.ts, LargeJsonBody), so that the
 * service's thread neither decodes nor parses it. Its `data`, when a string, is set apart: the
 * service's thread gets the rest of the value as JSON text (`data` emptied in its place; a few
 * dozen bytes to parse for a well-formed request), and the text as UTF-16 code units (a plain
 * copy, no transcoding, lone surrogates kept), which it hands on to the feature's own call without
 * reading them. A value nested too deeply to write back (hostile input: a list 100,000 deep
 * parses, but neither JSON.stringify nor a message between threads takes it) is given back as its
 * bytes, for the service's thread to parse as it parses a small body.
 */

/** A large body's bytes, to read on a feature thread. */
export interface BodyTask {
  body: Uint8Array
  /** This call's place in the buffer shared with the pool (see call-slots.ts). */
  slot: number
  /** This call's number (see call-slots.ts). */
  ticket: number
}

/** A body's `data` set apart: its UTF-16 code units (textUnits), and its size in UTF-8. */
export interface DataApart {
  units: Uint8Array
  dataBytes: number
}

/**
 * What reading a body gave: its value as JSON text (`rest`), with `data` (when a string) emptied
 * and set apart (`apart`); its bytes (`raw`), when nested too deeply to write back; or the problem
 * the client is told.
 */
export type BodyReading =
  | { rest: string; apart?: DataApart }
  | { raw: Uint8Array }
  | { problem: string }

export function readBody(bytes: Uint8Array): BodyReading {
  let value: unknown
  try {
    value = jsonBodyValue(bytes)
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: jsonBodyValue throws nothing else
    if (error instanceof BodyTextError) return { problem: error.message }
    throw error
  }
  // Only an object parsed from JSON has a member `data` (an array has no named members).
  const { data } = (value ?? {}) as { data?: unknown }
  const apart = typeof data === 'string'
  let rest: string
  try {
    rest = JSON.stringify(apart ? { ...(value as object), data: '' } : value)
  } catch {
    // A value parsed from JSON has no cycle and no BigInt: only its depth can overflow the stack.
    return { raw: bytes }
  }
  return apart
    ? {
        rest,
        apart: { units: textUnits(data), dataBytes: Buffer.byteLength(data) },
      }
    : { rest }
}

/** A text's UTF-16 code units, in a buffer of their own. */
export function textUnits(text: string): Uint8Array {
  const units = new Uint8Array(text.length * 2)
  Buffer.from(units.buffer).write(text, 'ucs2')
  return units
}

/** The text of textUnits' code units. */
export function unitsText(units: Uint8Array): string {
  return Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString('ucs2')
}
