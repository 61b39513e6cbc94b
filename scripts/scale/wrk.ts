import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { exec } from '../lib/exec.js'
import { Failure } from '../lib/run.js'

const SCRIPT = join(import.meta.dirname, 'load.lua')
const MARKER = 'SCALE_LOAD '

export interface LoadRequest {
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
}

export interface LoadResult {
  sent: number
  received: number
  non2xx: number
  statuses: Record<string, number>
  errors: { connect: number; read: number; write: number; timeout: number; status: number }
  latencyUs: { p50: number; p99: number; max: number }
  /** From start to the last response, measured here. */
  durationMs: number
}

/** Fails unless wrk (Debian's package) is installed. */
export async function checkWrk(): Promise<void> {
  const found = await exec('sh', ['-c', 'command -v wrk'])
  if (found.code !== 0) throw new Failure('wrk is not installed (apt-get install -y wrk)')
}

/** A Lua string literal (bytes pass through; quotes, backslashes and controls escaped). */
function lua(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point
  return `"${text.replace(/["\\\x00-\x1f\x7f]/g, (c) => `\\${String(c.charCodeAt(0)).padStart(3, '0')}`)}"`
}

function specFile(requests: LoadRequest[]): string {
  const entries = requests.map((r) => {
    const headers = Object.entries(r.headers ?? {})
      .map(([name, value]) => `[${lua(name)}] = ${lua(value)}`)
      .join(', ')
    const body = r.body === undefined ? 'nil' : lua(r.body)
    return `  { method = ${lua(r.method)}, path = ${lua(r.path)}, headers = { ${headers} }, body = ${body} },`
  })
  return `return {\n${entries.join('\n')}\n}\n`
}

/**
 * A wrk run in the background: `connections` connections on one thread cycling through
 * `requests` against `baseUrl`, until stop() (or `maxSeconds`). Every request sent is waited
 * for before wrk ends, so sent − received counts requests the stack lost.
 */
export class Load {
  private readonly dir = mkdtempSync(join(tmpdir(), 'test-scale-wrk-'))
  private child: ChildProcess | undefined
  private output = ''
  private exited: Promise<number> | undefined
  private startedAt = 0

  constructor(
    readonly name: string,
    private readonly baseUrl: string,
    private readonly requests: LoadRequest[],
    private readonly connections: number,
    private readonly maxSeconds: number,
  ) {}

  start(): void {
    const spec = join(this.dir, 'spec.lua')
    writeFileSync(spec, specFile(this.requests))
    const deadline = Math.floor(Date.now() / 1000) + this.maxSeconds
    // -d only as a backstop: the threads stop themselves, then stop() interrupts the wait.
    const args = ['-t1', `-c${this.connections}`, `-d${this.maxSeconds + 60}s`, '--timeout', '5s']
    const child = spawn('wrk', [...args, '-s', SCRIPT, this.baseUrl], {
      env: {
        ...process.env,
        LOAD_SPEC: spec,
        LOAD_STOP_FILE: join(this.dir, 'stop'),
        LOAD_DEADLINE: String(deadline),
        LOAD_DONE_DIR: this.dir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.child = child
    this.startedAt = performance.now()
    const collect = (chunk: Buffer) => {
      this.output += chunk
    }
    child.stdout?.on('data', collect)
    child.stderr?.on('data', collect)
    this.exited = new Promise((resolve, reject) => {
      child.on('error', reject)
      child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 0 : 1)))
    })
  }

  /** Ends the load: no new requests, the ones in flight answered, then wrk's summary. */
  async stop(drainTimeoutMs = 15_000): Promise<LoadResult> {
    const child = this.child
    if (!child || !this.exited) throw new Error(`${this.name}: not started`)
    writeFileSync(join(this.dir, 'stop'), '')
    // The thread notices within a second, then waits for its last response.
    const deadline = performance.now() + drainTimeoutMs
    while (!readdirSync(this.dir).includes('1') && performance.now() < deadline) await sleep(100)
    const durationMs = performance.now() - this.startedAt
    child.kill('SIGINT')
    const code = await this.exited
    this.child = undefined
    const line = this.output.split('\n').find((l) => l.startsWith(MARKER))
    if (code !== 0 || !line) {
      throw new Failure(
        `${this.name}: wrk exited ${code} without a summary:\n${this.output.slice(-1500)}`,
      )
    }
    return { ...(JSON.parse(line.slice(MARKER.length)) as LoadResult), durationMs }
  }

  /** Kills wrk if it still runs and removes its files (clean-up). */
  async dispose(): Promise<void> {
    this.child?.kill('SIGKILL')
    if (this.child) await this.exited
    rmSync(this.dir, { recursive: true, force: true })
  }
}
