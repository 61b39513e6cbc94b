import { accessSync, constants } from 'node:fs'
import { join } from 'node:path'
import { exec, type Output, tail } from './exec.js'
import { Failure } from './run.js'

/** The repository root (this file is scripts/lib/compose.ts). */
export const ROOT = join(import.meta.dirname, '..', '..')

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

async function engineAnswers(): Promise<boolean> {
  return (await exec('docker', ['info'], { timeoutMs: 30_000 }).catch(() => undefined))?.code === 0
}

/** docker-sandbox: DOCKER_SANDBOX, on PATH, or ../shared/tools/docker-sandbox beside the repository. */
async function findSandbox(): Promise<string | undefined> {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: a script of its own, not a turbo task
  const given = process.env.DOCKER_SANDBOX
  if (given) return given
  const onPath = await exec('sh', ['-c', 'command -v docker-sandbox']).catch(() => undefined)
  if (onPath?.code === 0 && onPath.stdout.trim()) return onPath.stdout.trim()
  const sibling = join(ROOT, '..', 'shared', 'tools', 'docker-sandbox')
  return executable(sibling) ? sibling : undefined
}

/**
 * Makes sure a Docker engine answers: when none does and a docker-sandbox is found, starts it
 * (as root; the first start on a machine takes about 3 minutes). Returns a description.
 */
export async function ensureEngine(log: (message: string) => void): Promise<string> {
  const client = await exec('docker', ['--version']).catch(() => undefined)
  if (client?.code !== 0) throw new Failure('no docker client on PATH')
  if (!(await engineAnswers())) {
    const sandbox = await findSandbox()
    if (!sandbox) {
      throw new Failure('no Docker engine answers (docker info) and no docker-sandbox was found')
    }
    log(`no engine: starting ${sandbox} (the first start on a machine takes ~3 min)`)
    const started = await exec(sandbox, [], { echo: true, timeoutMs: 900_000 })
    if (started.code !== 0) throw new Failure(`${sandbox} failed to start the engine`)
    if (!(await engineAnswers())) throw new Failure('the Docker engine still does not answer')
  }
  const version = await exec('docker', ['version', '-f', '{{.Server.Version}}'])
  return `Docker ${version.stdout.trim()}`
}

export interface ContainerState {
  id: string
  status: string
  /** `healthy`, `unhealthy`, `starting`, or `none` without a health check. */
  health: string
  exitCode: number
  startedAt: string
}

/** `docker compose` (v2, or v1 as `docker-compose`) for one compose file and its project. */
export class Compose {
  private command: string[] = []

  constructor(
    /** The compose file, relative to the repository root. */
    readonly file: string,
    /** Extra environment for compose's variable substitution (settings of the stack under test). */
    readonly env: Record<string, string> = {},
  ) {}

  private async binary(): Promise<string[]> {
    if (this.command.length > 0) return this.command
    if ((await exec('docker', ['compose', 'version']).catch(() => undefined))?.code === 0) {
      this.command = ['docker', 'compose']
    } else if ((await exec('docker-compose', ['version']).catch(() => undefined))?.code === 0) {
      this.command = ['docker-compose']
    } else {
      throw new Failure('neither `docker compose` nor `docker-compose` works')
    }
    return this.command
  }

  /** Runs `docker compose -f <file> ...args`; the result whatever the exit code. */
  async run(args: string[], timeoutMs = 900_000): Promise<Output> {
    const [command = 'docker', ...rest] = await this.binary()
    return exec(command, [...rest, '-f', join(ROOT, this.file), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      timeoutMs,
    })
  }

  /** Like run, but a non-zero exit is a Failure that shows the end of the output. */
  async ok(args: string[], timeoutMs?: number): Promise<string> {
    const out = await this.run(args, timeoutMs)
    if (out.code !== 0) {
      throw new Failure(`docker compose ${args.join(' ')} exited ${out.code}:\n${tail(out)}`)
    }
    return out.stdout
  }

  async version(): Promise<string> {
    const out = await this.run(['version', '--short'])
    return out.code === 0 ? out.stdout.trim() : ((await this.ok(['version'])).split('\n')[0] ?? '')
  }

  async services(): Promise<string[]> {
    return (await this.ok(['config', '--services'])).split('\n').filter(Boolean)
  }

  /** The container of `service` (its first one), or undefined when there is none. */
  async containerId(service: string): Promise<string | undefined> {
    const out = await this.run(['ps', '-a', '-q', service])
    return out.code === 0 ? out.stdout.split('\n').find(Boolean) : undefined
  }

  /** The state of every container of the stack, by service (two commands, however many). */
  async states(): Promise<Map<string, ContainerState>> {
    const states = new Map<string, ContainerState>()
    const ids = (await this.run(['ps', '-a', '-q'])).stdout.split('\n').filter(Boolean)
    if (ids.length === 0) return states
    const format =
      '{{.Id}}|{{index .Config.Labels "com.docker.compose.service"}}|{{.State.Status}}|' +
      // `index`: a container without a health check has no Health key (`.State.Health` would fail).
      '{{with index .State "Health"}}{{.Status}}{{else}}none{{end}}|{{.State.ExitCode}}|' +
      '{{.State.StartedAt}}'
    // A container removed meanwhile makes inspect fail for it alone: the others are still read.
    const out = await exec('docker', ['inspect', '-f', format, ...ids])
    for (const line of out.stdout.split('\n').filter(Boolean)) {
      const [id = '', service = '', status = '', health = '', exitCode = '0', startedAt = ''] =
        line.split('|')
      states.set(service, { id, status, health, exitCode: Number(exitCode), startedAt })
    }
    return states
  }

  /** The image compose uses for `service` (from `config`). */
  async image(service: string): Promise<string> {
    const config = await this.ok(['config'])
    const block = config.split(/\n(?= {2}\S)/).find((part) => part.startsWith(`  ${service}:`))
    const image = block && /\n {4}image: (\S+)/.exec(block)?.[1]
    if (!image) throw new Failure(`no image: for ${service} in ${this.file}`)
    return image
  }

  /** Stops and removes the stack; with `volumes`, its data too. */
  async down(volumes: boolean): Promise<void> {
    await this.ok(['down', '--remove-orphans', ...(volumes ? ['-v'] : [])], 300_000)
  }

  /** `ps` and the last log lines of each service, for a failure report. */
  async diagnostics(lines = 30): Promise<string> {
    const ps = await this.run(['ps'])
    const logs = await this.run(['logs', '--no-color', `--tail=${lines}`])
    return `${ps.stdout}\n${logs.stdout}${logs.stderr}`
  }
}
