// Starts and stops the Node processes under test (services and reference servers). Every process
// started here is stopped by stopAll(), which run.mjs calls on success, on errors and on Ctrl-C.
import { spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { createServer } from 'node:net'
import { performance } from 'node:perf_hooks'

const STOP_GRACE_MS = 10_000
const TAIL_BYTES = 8_000
// The services write an access-log line per request: at 60,000 requests a second, about 16 MB a
// second. The log file keeps a process's first 64 MB (its start and first scenarios); the rest is
// read from the pipe as a log collector would, kept in the tail, and only counted.
const LOG_FILE_BYTES = 64 * 1024 * 1024
const running = new Set()

/** A port nothing listens on right now (the OS picks it; the race with other processes is tiny). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Spawns `node <args>` with `env` added to ours, its output written to `logFile`. */
function spawnLogged({ name, args, env, logFile }) {
  const log = createWriteStream(logFile)
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let tail = ''
  let kept = 0
  let dropped = 0
  const keep = (chunk) => {
    tail = (tail + chunk.toString('utf8', Math.max(0, chunk.length - TAIL_BYTES))).slice(
      -TAIL_BYTES,
    )
    if (kept + chunk.length <= LOG_FILE_BYTES) {
      kept += chunk.length
      log.write(chunk)
    } else {
      dropped += chunk.length
    }
  }
  for (const stream of [child.stdout, child.stderr]) stream.on('data', keep)
  child.on('error', (error) => keep(Buffer.from(`spawn error: ${error.message}\n`)))
  const handle = {
    name,
    pid: child.pid,
    logFile,
    exitCode: undefined,
    exited: new Promise((resolve) => {
      // 'close' comes after 'exit' once the output pipes are drained into the log.
      child.on('close', (code, signal) => {
        handle.exitCode = code ?? signal
        resolve(handle.exitCode)
      })
    }),
    child,
    log,
    tail: () => tail,
    /** Bytes of output past the log file's size, read and not kept. */
    dropped: () => dropped,
  }
  running.add(handle)
  return handle
}

/**
 * Starts a server process (see spawnLogged) and waits until GET `readyUrl` answers 200, asking
 * every `pollMs`; `handle.readyMs` is the time from spawning to that 200. Throws (after stopping
 * it) with the tail of its output when it exits or is not ready in `timeoutMs`.
 */
export async function startProcess({ readyUrl, timeoutMs = 60_000, pollMs = 50, ...spec }) {
  const started = performance.now()
  const handle = spawnLogged(spec)
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline && handle.exitCode === undefined) {
    try {
      const response = await fetch(readyUrl, { signal: AbortSignal.timeout(2_000) })
      await response.arrayBuffer()
      if (response.status === 200) {
        handle.readyMs = performance.now() - started
        return handle
      }
    } catch {
      // Not listening yet.
    }
    await sleep(pollMs)
  }
  const why =
    handle.exitCode === undefined
      ? `not ready within ${timeoutMs / 1000} s`
      : `exited (${handle.exitCode}) before it was ready`
  await stopProcess(handle)
  throw new Error(`${spec.name} ${why} (GET ${readyUrl}). Last output:\n${handle.tail()}`)
}

/** Runs a one-off process (see spawnLogged) to completion; throws unless it exits with 0. */
export async function runProcess(spec) {
  const handle = spawnLogged(spec)
  const code = await handle.exited
  await stopProcess(handle)
  if (code !== 0) {
    throw new Error(`${spec.name} exited (${code}). Last output:\n${handle.tail()}`)
  }
}

/** SIGTERM, then SIGKILL when the process has not exited 10 s later. */
export async function stopProcess(handle) {
  if (handle.exitCode === undefined) {
    handle.child.kill('SIGTERM')
    const timer = setTimeout(() => handle.child.kill('SIGKILL'), STOP_GRACE_MS)
    await handle.exited
    clearTimeout(timer)
  }
  running.delete(handle)
  const dropped = handle.dropped()
  const note = dropped > 0 ? `[bench: ${dropped} more bytes of output were not kept]\n` : ''
  await new Promise((resolve) => handle.log.end(note, resolve))
}

export async function stopAll() {
  await Promise.all([...running].map(stopProcess))
}

// Last resort when this process dies without running its cleanup: no orphan keeps a port.
process.on('exit', () => {
  for (const handle of running) if (handle.exitCode === undefined) handle.child.kill('SIGKILL')
})
