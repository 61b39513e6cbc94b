import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

// patches/sonic-boom@4.2.1.patch: sonic-boom (pino's destination) measured its pending batch,
// a string growing line by line, on every write to see whether the next line still fits in
// `maxWrite`; measuring flattens that string each time. The patch measures it only when the
// bytes pending (which include it) could pass `maxWrite`. These tests pin the patched write to
// upstream's: the same chunks, the same bytes, one measurement per line while the bound holds.

interface Internals {
  _bufs: string[]
  _len: number
  minLength: number
}

let dir: string
let fd: number

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sonic-boom-patch-'))
  fd = openSync(join(dir, 'log'), 'w')
})

afterEach(() => {
  closeSync(fd)
  rmSync(dir, { recursive: true })
})

/** Upstream 4.2.1's chunking: a line starts a new chunk when the last plus it passes maxWrite. */
function upstreamChunks(lines: string[], maxWrite: number): string[] {
  const chunks: string[] = []
  for (const line of lines) {
    const last = chunks.at(-1)
    if (last === undefined || Buffer.byteLength(last) + Buffer.byteLength(line) > maxWrite) {
      chunks.push(line)
    } else {
      chunks[chunks.length - 1] = last + line
    }
  }
  return chunks
}

describe('sonic-boom as patched', () => {
  it('batches lines into the same chunks as upstream, whatever their sizes and scripts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 120 }), { maxLength: 60 }),
        fc.integer({ min: 16, max: 400 }),
        (lines, maxWrite) => {
          const destination = pino.destination({ dest: fd, sync: true, maxWrite })
          const internals = destination as unknown as Internals
          // Nothing written before the end, so every chunk can be seen (the constructor wants
          // minLength below maxWrite; the batching rule does not depend on it).
          internals.minLength = Number.MAX_SAFE_INTEGER
          for (const line of lines) destination.write(line)
          expect(internals._bufs).toEqual(upstreamChunks(lines, maxWrite))
          expect(internals._len).toBe(Buffer.byteLength(lines.join('')))
          internals._bufs = []
          internals._len = 0
        },
      ),
    )
  })

  it('writes every line, in order, when batches pass maxWrite on their way out', () => {
    const destination = pino.destination({ dest: fd, sync: true, minLength: 512, maxWrite: 1000 })
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'é€😀'.repeat(i % 50)}\n`)
    for (const line of lines) destination.write(line)
    destination.flushSync()
    expect(readFileSync(join(dir, 'log'), 'utf8')).toBe(lines.join(''))
  })

  it('measures a line once, not the batch it joins, while the batch is far below maxWrite', () => {
    const destination = pino.destination({ dest: fd, sync: true, minLength: 4096 })
    destination.write('a first line starts the batch\n')
    const measured: unknown[] = []
    const byteLength = Buffer.byteLength
    Buffer.byteLength = ((value: string, encoding?: BufferEncoding) => {
      measured.push(value)
      return byteLength(value, encoding)
    }) as typeof Buffer.byteLength
    try {
      for (let i = 0; i < 10; i++) destination.write(`line ${i}\n`)
    } finally {
      Buffer.byteLength = byteLength
    }
    // Upstream also measured the pending batch before each line: 20 calls.
    expect(measured).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i}\n`))
  })
})
