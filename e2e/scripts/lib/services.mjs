// The built services of an end-to-end run as child processes: started, awaited ready, stopped
// with SIGTERM and their graceful shutdown checked. What went wrong is collected in `failures`.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const READY_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 15_000

/** What failed, in order; the run fails when it is not empty. */
export const failures = []
/** @type {Map<string, import('node:child_process').ChildProcess>} */
const services = new Map()
/** @type {Map<string, string>} */
const baseUrls = new Map()

export function log(message) {
  process.stdout.write(`\n[e2e] ${message}\n`)
}

/** Runs a command to completion with inherited output; resolves with its exit code. */
export async function run(command, args, options = {}) {
  const child = spawn(command, args, { stdio: 'inherit', ...options })
  const [code, signal] = await once(child, 'exit')
  return signal ? 128 : code
}

/** Starts a built service; its (warn-level) log lines are shown prefixed with its name. */
export function startService(name, script, env, baseUrl) {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  for (const stream of [child.stdout, child.stderr]) {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) if (line) process.stderr.write(`[${name}] ${line}\n`)
    })
    stream.on('end', () => {
      if (rest) process.stderr.write(`[${name}] ${rest}\n`)
    })
  }
  child.exitState = null
  child.once('exit', (code, signal) => {
    child.exitState = { code, signal }
  })
  services.set(name, child)
  baseUrls.set(name, baseUrl)
  return child
}

export async function waitReady(name) {
  const baseUrl = baseUrls.get(name)
  const child = services.get(name)
  const deadline = Date.now() + READY_TIMEOUT_MS
  let last = 'no answer'
  while (Date.now() < deadline) {
    if (child?.exitState) {
      throw new Error(`${name} exited before it was ready (${JSON.stringify(child.exitState)})`)
    }
    try {
      const res = await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2_000) })
      last = `${res.status} ${await res.text()}`
      if (res.status === 200) return
    } catch (error) {
      last = String(error?.cause?.code ?? error)
    }
    await sleep(250)
  }
  throw new Error(`${name} not ready at ${baseUrl}/ready within ${READY_TIMEOUT_MS} ms: ${last}`)
}

/** During the drain after SIGTERM: /ready says 503 shutting_down, /health still answers 200. */
async function checkDrain(name, baseUrl) {
  const ready = await fetch(`${baseUrl}/ready`)
  const body = await ready.json()
  const health = await fetch(`${baseUrl}/health`)
  await health.arrayBuffer()
  if (ready.status !== 503 || body.status !== 'shutting_down' || health.status !== 200) {
    failures.push(
      `${name} while draining: /ready ${ready.status} ${JSON.stringify(body)}, /health ${health.status}`,
    )
  } else {
    log(`${name} drains: /ready 503 shutting_down while /health still answers 200`)
  }
}

/** SIGTERM, then expects exit code 0 within STOP_TIMEOUT_MS (SIGKILL and a failure otherwise). */
async function stopService(name, baseUrl) {
  const child = services.get(name)
  if (!child) return
  services.delete(name)
  if (child.exitState) {
    failures.push(`${name} had already exited: ${JSON.stringify(child.exitState)}`)
    return
  }
  const started = Date.now()
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  if (baseUrl) {
    await sleep(200)
    await checkDrain(name, baseUrl).catch((error) => failures.push(`${name} drain: ${error}`))
  }
  const result = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => 'timeout')])
  if (result === 'timeout') {
    child.kill('SIGKILL')
    await exited
    failures.push(`${name} did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM`)
    return
  }
  const [code, signal] = result
  const ms = Date.now() - started
  if (code === 0) log(`${name} stopped gracefully on SIGTERM in ${ms} ms (exit 0)`)
  else failures.push(`${name} exited with code ${code} signal ${signal} after SIGTERM`)
}

/** Stops every service still running (see stopService). */
export async function stopAll() {
  for (const name of [...services.keys()]) await stopService(name, baseUrls.get(name))
}
