import type { AccountReport } from './commands.js'

// What the admin CLI prints for people (the default); `--json` prints the reports as they are.

/** `2026-11-23 14:05 UTC`, or a dash. */
function when(iso: string | null, none = '—'): string {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : none
}

/** Columns padded to their widest cell. */
function table(rows: string[][]): string[] {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? []
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  )
}

export function formatAccount(report: AccountReport): string {
  const lines = [
    `Account   ${report.email}`,
    `Id        ${report.id}`,
    `Plan      ${report.plan} (since ${when(report.plan_changed_at)})`,
    `Created   ${when(report.created_at)}`,
    `Status    ${report.disabled ? `DISABLED since ${when(report.disabled_at)}` : 'enabled'}`,
    '',
  ]
  if (report.keys.length === 0) {
    lines.push('No keys.')
  } else {
    lines.push(`Keys (${report.keys.length}; today = requests counted since 00:00 UTC)`)
    const rows = [['PREFIX', 'NAME', 'STATE', 'EXPIRES', 'LAST USED', 'TODAY', 'ID']]
    for (const key of report.keys) {
      rows.push([
        `${key.prefix}…`,
        key.name,
        key.state,
        key.state === 'revoked' ? `revoked ${when(key.revoked_at)}` : when(key.expires_at, 'never'),
        when(key.last_used_at, 'never'),
        key.used_today === null
          ? '?'
          : `${key.used_today.toLocaleString('en')} / ${key.daily_limit.toLocaleString('en')}`,
        key.id,
      ])
    }
    lines.push(...table(rows).map((line) => `  ${line}`))
  }
  return lines.join('\n')
}

/** Warnings go to stderr, so stdout stays the answer. */
export function formatWarnings(warnings: string[]): string {
  return warnings.map((warning) => `warning: ${warning}\n`).join('')
}
