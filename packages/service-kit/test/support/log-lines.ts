import { Writable } from 'node:stream'

export interface LogLine {
  level: number
  msg: string
  [field: string]: unknown
}

/** A pino destination that keeps every line written to it, parsed, for a test to read. */
export function logLines() {
  const written: LogLine[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written.push(JSON.parse(String(chunk)))
      done()
    },
  })
  return { stream, lines: () => written }
}
