import { spawn } from 'node:child_process'

export interface Output {
  code: number
  stdout: string
  stderr: string
}

export interface ExecOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** Killed (SIGKILL) after this long; the result then has code 124. Default: 10 minutes. */
  timeoutMs?: number
  /** Also echo the output to stderr as it comes. */
  echo?: boolean
}

/** Runs a command to completion and captures its output (never throws for a non-zero exit). */
export function exec(command: string, args: string[], opts: ExecOptions = {}): Promise<Output> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk
      if (opts.echo) process.stderr.write(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk
      if (opts.echo) process.stderr.write(chunk)
    })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, opts.timeoutMs ?? 600_000)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code: timedOut ? 124 : (code ?? 1), stdout, stderr })
    })
  })
}

/** The last `lines` lines of a command's output, for a failure message. */
export function tail(output: Output, lines = 40): string {
  return `${output.stdout}${output.stderr}`.trimEnd().split('\n').slice(-lines).join('\n')
}
