import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Helpers for tests that run their own servers (a Redis Cluster, PgBouncer, a private Postgres or
 * Redis they stop and start): free ports, spawning, waiting, stopping.
 */

/** A TCP port nothing listens on right now (and, with `plus`, `port + plus` free too). */
export async function freePort(plus?: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    // Cluster bus ports are port + 10000: stay below 55535.
    const port = 20_000 + Math.floor(Math.random() * 30_000)
    if ((await isFree(port)) && (plus === undefined || (await isFree(port + plus)))) return port
  }
  throw new Error('no free port found')
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.close(() => resolve(true))
    })
  })
}

/** Polls `check` until it resolves true, or fails after `timeoutMs` with `what` in the message. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  while (Date.now() < deadline) {
    try {
      if (await check()) return
    } catch (error) {
      lastError = error
    }
    await sleep(intervalMs)
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`,
  )
}

export interface Spawned {
  child: ChildProcess
  /** What the process printed (stdout and stderr), for failure messages. */
  output: () => string
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop: (graceMs?: number) => Promise<void>
}

/** Starts a server process whose output is kept (the last 20 KB) for error messages. */
export function spawnServer(command: string, args: string[], options: { cwd?: string } = {}) {
  const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
  const spawned: Spawned = {
    child,
    output: () => output,
    stop: async (graceMs = 5_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
      await exited
      clearTimeout(timer)
    },
  }
  return spawned
}

export interface ScriptResult {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs a TypeScript command from the sources as `pnpm <script>` does (tsx, packages resolved from
 * their sources), in `cwd`, with only `env` added to PATH and HOME: the test decides every
 * setting. Resolves when it exits (killed after `timeoutMs`).
 */
export function runScript(
  cwd: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<ScriptResult> {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', script, ...args],
    {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
