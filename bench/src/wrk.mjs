// Load generation with wrk (Debian's package): one run of a request at a fixed number of
// threads and connections, its summary read from the JSON line wrk/load.lua prints.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { paths } from './config.mjs'

const SCRIPT = join(paths.src, 'wrk', 'load.lua')
const MARKER = 'BENCH_RESULT '

function wrkVersion() {
  try {
    // wrk prints its version with the usage text and exits 1 when given no URL.
    execFileSync('wrk', ['--version'], { encoding: 'utf8', stdio: 'pipe' })
  } catch (error) {
    if (error.code === 'ENOENT') return undefined
    return /wrk (\S+)/.exec(`${error.stdout}`)?.[1] ?? 'unknown'
  }
  return 'unknown'
}

/**
 * Makes sure `wrk` is on PATH: when it is missing, installs Debian's package as root, else throws
 * with how to install it. Resolves to wrk's version.
 */
export function ensureWrk(log) {
  const found = wrkVersion()
  if (found) return found
  if (process.getuid?.() !== 0) {
    throw new Error(
      'wrk is not installed. Install it with `sudo apt-get install -y wrk` (Debian, Ubuntu) ' +
        'or your system package manager, then run the benchmark again.',
    )
  }
  log('wrk is not installed: apt-get install -y wrk')
  try {
    execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'inherit' })
  } catch {
    // A fresh machine may have no package lists yet.
    log('apt-get install failed: apt-get update, then again')
    execFileSync('apt-get', ['update'], { stdio: 'inherit' })
    execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'inherit' })
  }
  const installed = wrkVersion()
  if (!installed) throw new Error('apt-get install -y wrk did not put wrk on PATH')
  return installed
}

/** A Lua string literal of `text` (bytes above 127 pass through; Lua strings are bytes). */
function luaString(text) {
  let out = '"'
  for (const char of text) {
    const code = char.codePointAt(0)
    if (char === '"' || char === '\\' || code < 32 || code === 127) {
      out += `\\${String(code).padStart(3, '0')}`
    } else out += char
  }
  return `${out}"`
}

const luaTable = (object) =>
  `{ ${Object.entries(object)
    .map(([name, value]) => `[${luaString(name)}] = ${luaString(String(value))}`)
    .join(', ')} }`

/** The Lua file load.lua reads: { method, path, headers, body, variants }. */
function requestFile(request) {
  const url = new URL(request.url)
  const lines = [
    'return {',
    `  method = ${luaString(request.method ?? 'GET')},`,
    `  path = ${luaString(`${url.pathname}${url.search}`)},`,
    `  headers = ${luaTable(request.headers ?? {})},`,
    `  body = ${request.body === undefined ? 'nil' : luaString(request.body)},`,
    `  variants = { ${(request.variants ?? []).map(luaTable).join(', ')} },`,
    '}',
  ]
  return `${lines.join('\n')}\n`
}

let current

/** Stops the wrk run under way, if any (Ctrl-C). */
export function stopWrk() {
  current?.kill('SIGKILL')
}

/**
 * One wrk run of `request` ({ url, method, headers, body, variants }): `threads` threads,
 * `connections` connections, `duration` seconds. Each connection cycles through `variants`
 * (extra header sets). Resolves to the summary of load.lua (latencies in µs).
 */
export async function runWrk(request, { threads, connections, duration, timeout = 10 }) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'))
  try {
    const file = join(dir, 'request.lua')
    writeFileSync(file, requestFile(request))
    const args = [
      `-t${threads}`,
      `-c${Math.max(connections, threads)}`,
      `-d${duration}s`,
      `--timeout`,
      `${timeout}s`,
      '-s',
      SCRIPT,
      request.url,
    ]
    const child = spawn('wrk', args, {
      env: { ...process.env, BENCH_REQUEST: file },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    current = child
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    // Bounded: wrk stops by itself after `duration`; this is the safety net.
    const guard = setTimeout(() => child.kill('SIGKILL'), (duration + timeout + 30) * 1000)
    const code = await new Promise((resolve, reject) => {
      child.on('error', reject)
      child.on('close', resolve)
    })
    clearTimeout(guard)
    current = undefined
    const line = output.split('\n').find((l) => l.startsWith(MARKER))
    if (code !== 0 || !line) {
      throw new Error(`wrk ${args.join(' ')} exited (${code}):\n${output.slice(-2000)}`)
    }
    return JSON.parse(line.slice(MARKER.length))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
