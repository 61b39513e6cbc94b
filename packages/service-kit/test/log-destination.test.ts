import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { BATCH_BYTES, logDestination } from '../src/log-destination.js'

// A child process with a pipe on stdout, as under Docker or a log collector: its reader (this
// test) waits before reading, so the pipe fills. The child writes 1 MB to stdout in one
// synchronous write, after touching `process.stdout` as every service does.

const moduleUrl = new URL('../src/log-destination.ts', import.meta.url).href
const BYTES = 1 << 20

const child = (setUp: string) => `
  import { writeSync } from 'node:fs'
  import process from 'node:process'
  const { blockingStdout, logDestination } = await import(${JSON.stringify(moduleUrl)})
  process.stdout // Node opens the pipe non-blocking here
  const made = ${setUp}
  const bytes = Buffer.alloc(${BYTES}, 120)
  let written = 0
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written)
    process.stderr.write(JSON.stringify({ made, written }))
  } catch (error) {
    process.stderr.write(JSON.stringify({ made, written, error: error.code }))
  }
`

/** Runs `code` as an ES module in a child process with `stdout`; its stderr, once it has closed. */
function spawnModule(code: string, stdout: 'pipe' | number) {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', code], {
    stdio: ['ignore', stdout, 'pipe'],
  })
  const closed = once(proc, 'close')
  let stderr = ''
  proc.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  return { proc, done: closed.then(([code]) => ({ code: code as number | null, stderr })) }
}

/** Runs the child, reading its stdout only once it has been waiting 300 ms. */
async function run(setUp: string) {
  const { proc, done } = spawnModule(child(setUp), 'pipe')
  const stdout = proc.stdout as NonNullable<typeof proc.stdout>
  stdout.pause()
  await new Promise((resolve) => setTimeout(resolve, 300))
  let received = 0
  stdout.on('data', (chunk: Buffer) => {
    received += chunk.length
  })
  stdout.resume()
  const { code, stderr } = await done
  return { code, received, report: JSON.parse(stderr) as Record<string, unknown> }
}

describe('a piped stdout', () => {
  it('is non-blocking in Node by default: once the pipe is full a write fails with EAGAIN', async () => {
    const { code, report } = await run('false')
    expect(code).toBe(0)
    expect(report).toMatchObject({ made: false, error: 'EAGAIN' })
    expect(report.written).toBeLessThan(BYTES)
  })

  it('blocks again after blockingStdout: the write waits for the reader and all of it arrives', async () => {
    const { code, received, report } = await run('blockingStdout()')
    expect(code).toBe(0)
    expect(report).toEqual({ made: true, written: BYTES })
    expect(received).toBe(BYTES)
  })

  it('blocks once the services log destination is made for stdout', async () => {
    const { received, report } = await run('(logDestination(), "destination")')
    expect(report).toEqual({ made: 'destination', written: BYTES })
    expect(received).toBe(BYTES)
  })
})

describe('blockingStdout', () => {
  it('leaves a stdout that is not a pipe or socket alone (a file is always blocking)', async () => {
    const file = openSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'r')
    // stdout on a file (opened read-only: nothing is written to it)
    const { done } = spawnModule(
      `const { blockingStdout } = await import(${JSON.stringify(moduleUrl)}); process.stderr.write(String(blockingStdout()))`,
      file,
    )
    closeSync(file)
    const { stderr } = await done
    expect(stderr).toBe('false')
  })
})

describe('logDestination', () => {
  /** A destination on a file of its own, and what the file holds so far. */
  function onFile() {
    const dir = mkdtempSync(join(tmpdir(), 'log-destination-'))
    const path = join(dir, 'log')
    const destination = logDestination(openSync(path, 'w'))
    return {
      destination,
      written: () => readFileSync(path, 'utf8'),
      /** Ends the destination (its periodic flush and its descriptor) and removes the file. */
      close: async () => {
        const stream = destination as unknown as NodeJS.EventEmitter & { end(): void }
        const closed = once(stream, 'close')
        stream.end()
        await closed
        rmSync(dir, { recursive: true })
      },
    }
  }
  const line = (i: number) => `${JSON.stringify({ i, msg: 'x'.repeat(200) })}\n`

  it('keeps lines until a batch of BATCH_BYTES is full, then writes it whole and in order', async () => {
    const log = onFile()
    const lines: string[] = []
    let i = 0
    while (lines.join('').length + line(i).length < BATCH_BYTES) lines.push(line(i++))
    for (const each of lines) log.destination.write(each)
    expect(log.written()).toBe('')
    lines.push(line(i))
    log.destination.write(line(i))
    expect(log.written()).toBe(lines.join(''))
    await log.close()
  })

  it('writes a lone line within 250 ms, and what is left at flushSync', async () => {
    const log = onFile()
    log.destination.write(line(1))
    expect(log.written()).toBe('')
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(log.written()).toBe(line(1))
    log.destination.write(line(2))
    log.destination.flushSync()
    expect(log.written()).toBe(line(1) + line(2))
    await log.close()
  })
})
