import { describe, expect, it } from 'vitest'
import { readBody, textUnits, unitsText } from '../../../src/features/body-task.js'
import { readingValue } from '../../../src/lib/json-body.js'
import { jsonBodyValue } from '../../../src/lib/json-text.js'

/*
 * A large body read on a feature thread (here, on this one), and what the service's thread makes
 * of the reading (readingValue): the value it would have parsed itself, `data` set apart as code
 * units it hands on unread.
 */

const bytesOf = (text: string) => new Uint8Array(Buffer.from(text))

/** The value with its `data` put back, as the feature's call will see it. */
function whole(bytes: Uint8Array): unknown {
  const { value, apart } = readingValue(readBody(bytes))
  return apart === undefined ? value : { ...(value as object), data: unitsText(apart.units) }
}

describe('reading a large body', () => {
  it('sets `data` apart as its code units, emptied in its place, with its size in UTF-8', () => {
    // A lone surrogate (kept: not made U+FFFD), a pair, letters beyond ASCII, escapes.
    const data = 'Ünïcödé \ud800 lone, 😀 pair, “quotes”,\n\t"escaped" \\ text'
    const body = bytesOf(JSON.stringify({ options: { feature: 'stats' }, data, extra: 1 }))
    const reading = readBody(body)
    expect(reading).toMatchObject({
      rest: '{"options":{"feature":"stats"},"data":"","extra":1}',
      apart: { dataBytes: Buffer.byteLength(data, 'utf8') },
    })
    const { value, apart } = readingValue(reading)
    // Its members keep their order (a validation error names the first one wrong).
    expect(Object.keys(value as object)).toEqual(['options', 'data', 'extra'])
    expect(unitsText(apart?.units as Uint8Array)).toBe(data)
    expect(whole(body)).toEqual(jsonBodyValue(body))
  })

  it.each([
    ['an array', '[1, 2]'],
    ['a string', '"text"'],
    ['null', 'null'],
    ['a number for data', '{"data": 42, "options": {"feature": "stats"}}'],
    ['no data', '{"options": {"feature": "stats"}}'],
  ])('gives %s back whole, for the validation to judge', (_label, body) => {
    expect(readBody(bytesOf(body))).toEqual({ rest: JSON.stringify(JSON.parse(body)) })
    expect(readingValue(readBody(bytesOf(body))).value).toEqual(JSON.parse(body))
    expect(readingValue(readBody(bytesOf(body))).apart).toBeUndefined()
  })

  it('gives a value nested too deeply to write back as its bytes, parsed by the service thread', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    const text = `{"data":"x","options":{"feature":"redact","mask":${deep}}}`
    const reading = readBody(bytesOf(text))
    expect(reading).toEqual({ raw: bytesOf(text) })
    // (Compared by its surface: a comparison would recurse 100,000 deep.)
    const { value } = readingValue(reading) as { value: { data: string; options: object } }
    expect(value.data).toBe('x')
    expect(Object.keys(value.options)).toEqual(['feature', 'mask'])
  })

  it.each([
    ['empty', '   \n ', 'The body is empty; send a JSON object.'],
    ['not JSON', '{"data": "x", ', 'The body is not valid JSON.'],
    [
      'a prototype key',
      '{"__proto__": {"admin": true}, "data": "x"}',
      'The body is not valid JSON.',
    ],
  ])('names the problem of a body %s, as the service thread does', (_label, body, problem) => {
    expect(readBody(bytesOf(body))).toEqual({ problem })
    expect(() => readingValue({ problem })).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', statusCode: 400, message: problem }),
    )
    expect(() => jsonBodyValue(bytesOf(body))).toThrow(problem)
  })

  it('decodes malformed UTF-8 as Node does, each bad sequence a U+FFFD', () => {
    const bytes = new Uint8Array([...Buffer.from('{"data":"a'), 0xff, 0xc3, ...Buffer.from('b"}')])
    expect(whole(bytes)).toEqual({ data: 'a\ufffd\ufffdb' })
    expect(whole(bytes)).toEqual(JSON.parse(Buffer.from(bytes).toString('utf8')))
  })

  it('puts code units in a buffer of their own, and reads them back whatever their offset', () => {
    const units = textUnits('añ😀')
    expect(units.byteOffset).toBe(0)
    expect(units.buffer.byteLength).toBe(8)
    const shifted = new Uint8Array(units.byteLength + 2)
    shifted.set(units, 2)
    expect(unitsText(shifted.subarray(2))).toBe('añ😀')
    expect(unitsText(textUnits(''))).toBe('')
  })
})
