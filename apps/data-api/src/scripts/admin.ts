// The operator's tool: pnpm --filter @repo/data-api admin <command> [...] (--help lists them).
import { runCommand, UsageError, withCommandStores } from '@repo/service-kit'
import {
  type AccountReport,
  type ActionReport,
  changePlan,
  resetKey,
  revokeKey,
  setDisabled,
  showAccount,
} from '../admin/commands.js'
import { formatAccount, formatWarnings } from '../admin/output.js'
import { type AdminStores, openAdminStores } from '../admin/stores.js'
import { loadDataApiConfig } from '../config.js'

const HELP = `
Usage: pnpm --filter @repo/data-api admin <command> [arguments] [--json]

Looks up and changes accounts without SQL. Every change is recorded in the account's activity log
(by an administrator) and reaches every running instance at once (Redis pub/sub).

Commands:
  user <email>                  the account (plan, created, disabled?), its keys (prefix, name,
                                state, expiry, last use) and each key's requests today
  plan <email> <plan>           change the plan (FREE, PRO, ENTERPRISE); applies to the next request
  revoke <email> <key>          revoke a key (<key>: its prefix as "user" shows it, or its id)
  reset <email> <key>           set the key's count for today back to 0
  disable <email>               refuse the account's keys (403 ACCOUNT_DISABLED), end its
                                sessions and refuse its sign-ins
  enable <email>                undo disable

Options:
  --json        print the result as JSON (for scripts)
  -h, --help    this text

Exit codes: 0 done, 1 failed (no such account or key, a store not answering), 2 wrong usage.

Environment: the service's own settings: DATABASE_URL, REDIS_URL, REDIS_CLUSTER_NODES,
REDIS_KEY_PREFIX, EMBEDDED_STORES (with no DATABASE_URL and nothing answering, the embedded
Postgres the service uses in .data/data-api/pglite).
`

type Command = (stores: AdminStores, args: string[]) => Promise<AccountReport | ActionReport>

/** Each command with the arguments it takes. */
const COMMANDS: Record<string, { args: string[]; run: Command }> = {
  user: { args: ['email'], run: (s, [email]) => showAccount(s, email as string) },
  plan: {
    args: ['email', 'plan'],
    run: (s, [email, plan]) => changePlan(s, email as string, plan as string),
  },
  revoke: {
    args: ['email', 'key'],
    run: (s, [email, key]) => revokeKey(s, email as string, key as string),
  },
  reset: {
    args: ['email', 'key'],
    run: (s, [email, key]) => resetKey(s, email as string, key as string),
  },
  disable: { args: ['email'], run: (s, [email]) => setDisabled(s, email as string, true) },
  enable: { args: ['email'], run: (s, [email]) => setDisabled(s, email as string, false) },
}

function commandOf(positionals: string[]) {
  const [name, ...args] = positionals
  if (name === undefined) throw new UsageError('name a command')
  const command = COMMANDS[name]
  if (!command) {
    throw new UsageError(
      `unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})`,
    )
  }
  if (args.length !== command.args.length) {
    throw new UsageError(`usage: admin ${name} ${command.args.map((arg) => `<${arg}>`).join(' ')}`)
  }
  return { run: command.run, args }
}

function print(report: AccountReport | ActionReport, json: boolean): void {
  process.stderr.write(formatWarnings(report.warnings))
  if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  else process.stdout.write(`${'keys' in report ? formatAccount(report) : report.message}\n`)
}

await runCommand(
  { name: 'data-api admin', help: HELP, positionals: true, options: { json: { type: 'boolean' } } },
  async ({ values, positionals }) => {
    const { run, args } = commandOf(positionals)
    await withCommandStores('data-api', loadDataApiConfig(), async (config, embedded) => {
      const stores = await openAdminStores(config, embedded.redis)
      try {
        print(await run(stores, args), values.json === true)
      } finally {
        await stores.close()
      }
    })
  },
)
