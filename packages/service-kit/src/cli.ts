import { type ParseArgsOptionsConfig, parseArgs } from 'node:util'
import { type BaseConfig, ConfigError } from './config.js'
import { resolveConfigStores } from './embedded.js'
import { NETWORK_CODES } from './unavailable.js'

/**
 * The frame of the commands people run (migrate, seed, load-synthetic, admin): `--help`, argument
 * parsing with node:util's parseArgs, and exit codes 0 (done), 1 (failed), 2 (wrong usage).
 * Failures the person running the command can act on (bad arguments, bad configuration, a
 * database that does not answer) print one clear line, never a stack trace.
 */

/** A failure the person running the command can fix: printed as is, exit code 1. */
export class CliError extends Error {
  override name = 'CliError'
}

/** Wrong arguments: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

const EXIT_OK = 0
const EXIT_FAILURE = 1
const EXIT_USAGE = 2

/** True for failures to report in one line: ours, configuration, a store down, Postgres refusing. */
function isExpectedFailure(error: unknown): boolean {
  if (error instanceof CliError || error instanceof ConfigError) return true
  if ((error as Error | undefined)?.name === 'UnreachableError') return true
  const code = (error as { code?: unknown } | undefined)?.code
  // Postgres reports SQLSTATEs (five characters: 28P01 bad password, 3D000 no database, ...).
  return typeof code === 'string' && (NETWORK_CODES.has(code) || /^[0-9A-Z]{5}$/.test(code))
}

export interface CommandSpec<O extends ParseArgsOptionsConfig> {
  /** What starts its messages: `quotes seed`. */
  name: string
  /** The `--help` text: usage, arguments, options, examples. */
  help: string
  options?: O
  /** Whether positional arguments are allowed (default: no). */
  positionals?: boolean
}

type Parsed<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>
>

export interface CommandArgs<O extends ParseArgsOptionsConfig> {
  values: Parsed<O>['values']
  positionals: string[]
}

function parse<O extends ParseArgsOptionsConfig>(spec: CommandSpec<O>, argv: string[]) {
  const options = { ...spec.options, help: { type: 'boolean', short: 'h' } } as unknown as O
  try {
    const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
    const help = (parsed.values as { help?: boolean }).help === true
    if (!spec.positionals && parsed.positionals.length > 0 && !help) {
      throw new UsageError(`unexpected argument "${parsed.positionals[0]}"`)
    }
    return parsed
  } catch (error) {
    // parseArgs' own messages name the option ("Unknown option '--x'"); drop its advice to use
    // `--` (these commands take no arguments that start with a dash).
    throw new UsageError((error as Error).message.replace(/\. To specify a positional.*/s, ''))
  }
}

/**
 * Runs a command: parses `argv` (default: the process's), prints `--help`, runs `main`, and sets
 * the exit code. The process exits by itself once `main` has closed what it opened; a client that
 * keeps reconnecting cannot hold it past a second after that.
 */
export async function runCommand<O extends ParseArgsOptionsConfig>(
  spec: CommandSpec<O>,
  main: (args: CommandArgs<O>) => Promise<void>,
  argv: string[] = process.argv.slice(2),
): Promise<void> {
  let code = EXIT_OK
  try {
    const parsed = parse(spec, argv)
    if ((parsed.values as { help?: boolean }).help) {
      process.stdout.write(`${spec.help.trim()}\n`)
    } else {
      await main({ values: parsed.values, positionals: parsed.positionals })
    }
  } catch (error) {
    code = report(spec.name, error)
  }
  process.exitCode = code
  setTimeout(() => process.exit(code), 1_000).unref()
}

function report(name: string, error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`${name}: ${error.message}\nRun it with --help for usage.\n`)
    return EXIT_USAGE
  }
  if (isExpectedFailure(error)) {
    process.stderr.write(`${name}: ${(error as Error).message}\n`)
  } else {
    process.stderr.write(`${name}: unexpected error\n${(error as Error)?.stack ?? String(error)}\n`)
  }
  return EXIT_FAILURE
}

/** What the commands print while they work: one line per message on stderr, details after it. */
export const commandLog = {
  info: (obj: object, msg?: string) => printLine(obj, msg),
  warn: (obj: object, msg?: string) => printLine(obj, msg, 'warning: '),
}

function printLine(obj: object, msg: string | undefined, lead = '') {
  const details = Object.entries(obj)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ')
  process.stderr.write(`${lead}${msg ?? ''}${details ? ` (${details})` : ''}\n`)
}

/**
 * Runs `work` on the stores a command should use: the configured ones, or, like the service (see
 * resolveConfigStores), the embedded Postgres when none is configured or answering, so a command
 * run beside `pnpm dev` on a machine with nothing installed sees the service's data (it says so).
 * Closes them afterwards.
 */
export async function withCommandStores<C extends BaseConfig, T>(
  service: string,
  config: C,
  work: (config: C, embedded: { redis: boolean }) => Promise<T>,
): Promise<T> {
  const { config: resolved, stores } = await resolveConfigStores(service, config)
  if (stores.embedded.postgres) {
    commandLog.warn(
      {},
      'no Postgres configured (DATABASE_URL) or answering: using the embedded one in ' +
        `${stores.embedded.postgres}, as the service does (stop the service first: PGlite ` +
        'serves one process at a time)',
    )
  }
  try {
    return await work(resolved, { redis: stores.embedded.redis === true })
  } finally {
    await stores.close()
  }
}
