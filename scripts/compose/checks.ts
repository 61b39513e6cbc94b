import type { Compose } from '../lib/compose.js'
import { exec } from '../lib/exec.js'
import { expectStatus, http } from '../lib/http.js'
import { check, Failure, secs } from '../lib/run.js'

/** A few direct checks of the stack before the suite: corpus seeded, both services ready. */
export async function smokeChecks(quotesUrl: string, dataApiUrl: string): Promise<number> {
  const json = { accept: 'application/json' }
  const random = expectStatus(await http(`${quotesUrl}/api`), 200, 'quotes GET /api')
  check(random.text.trim() !== '', 'quotes GET /api: empty body')
  const q1 = expectStatus(
    await http(`${quotesUrl}/api/q/q1`, { headers: json }),
    200,
    'quotes GET /api/q/q1',
  )
  check(q1.json().id === 'q1', 'quotes GET /api/q/q1: another id')
  const love = await http(`${quotesUrl}/api/search?term=love&limit=5`, { headers: json })
  check(
    Number(expectStatus(love, 200, 'quotes search').json().total_quotes) > 0,
    "quotes search: no results for 'love' (corpus not seeded?)",
  )
  const all = await http(`${quotesUrl}/api/search?limit=1`, { headers: json })
  const total = Number(expectStatus(all, 200, 'quotes search without a term').json().total_quotes)
  expectStatus(await http(`${quotesUrl}/ready`), 200, 'quotes /ready')
  expectStatus(await http(`${dataApiUrl}/ready`), 200, 'data-api /ready')
  expectStatus(await http(`${dataApiUrl}/signup`), 200, 'data-api GET /signup')
  expectStatus(await http(`${dataApiUrl}/api/v1/data`), 401, 'data-api /api/v1/data without a key')
  expectStatus(await http(`${dataApiUrl}/docs/json`), 200, 'data-api /docs/json')
  return total
}

/** What the service images must (not) contain. */
export async function checkImages(compose: Compose, services: string[]): Promise<void> {
  for (const service of services) {
    const ref = await compose.image(service)
    const inspect = await exec('docker', [
      'image',
      'inspect',
      '-f',
      '{{.Config.User}}|{{range .Config.Env}}{{.}} {{end}}|{{if .Config.Healthcheck}}yes{{end}}',
      ref,
    ])
    const [user = '', env = '', healthcheck = ''] = inspect.stdout.trim().split('|')
    check(user === 'node', `${ref} runs as '${user || 'root'}', not node`)
    check(
      env.includes('NODE_ENV=production') && env.includes('EMBEDDED_STORES=off'),
      `${ref} lacks NODE_ENV=production or EMBEDDED_STORES=off`,
    )
    check(healthcheck === 'yes', `${ref} has no HEALTHCHECK`)
    const content = await exec('docker', [
      'run',
      '--rm',
      '--entrypoint',
      'sh',
      ref,
      '-c',
      `cd /app || exit 1
      for f in dist/server.js migrations views public package.json; do [ -e "$f" ] || { echo "missing /app/$f"; exit 1; }; done
      dev=$(ls node_modules/.pnpm | grep -E "^(typescript|tsx|vitest|@vitest\\+.*|@biomejs\\+.*|turbo|playwright-core|fast-check|esbuild)@")
      [ -z "$dev" ] || { echo "dev tooling in the image: $dev"; exit 1; }
      ! command -v pnpm >/dev/null || { echo "pnpm in the image"; exit 1; }
      [ ! -e src ] && [ ! -e test ] || { echo "sources or tests in the image"; exit 1; }`,
    ])
    check(content.code === 0, `${ref}: content check failed: ${content.stdout}${content.stderr}`)
  }
}

/** The end-to-end suite against the stack; its "Test Files/Tests" lines. */
export async function runE2e(root: string, quotesUrl: string, dataApiUrl: string): Promise<string> {
  // The suite imports @repo/contracts' build.
  const build = await exec('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@repo/e2e^...'], {
    cwd: root,
  })
  check(
    build.code === 0,
    `building the e2e suite's dependencies failed:\n${build.stdout.slice(-2000)}`,
  )
  const out = await exec('pnpm', ['test:e2e'], {
    cwd: root,
    env: { ...process.env, QUOTES_URL: quotesUrl, DATA_API_URL: dataApiUrl },
  })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing ANSI colours is the point
  const plain = out.stdout.replace(/\x1b\[[0-9;]*m/g, '')
  const lines = plain
    .split('\n')
    .filter((l) => /^\s*(Test Files|Tests)\s/.test(l))
    .map((l) => l.trim().replace(/\s+/g, ' '))
  if (out.code !== 0)
    throw new Failure(`the end-to-end suite failed (exit ${out.code}):\n${plain}${out.stderr}`)
  return lines.join('; ') || 'pnpm test:e2e exit 0'
}

/**
 * `docker stop` of `service`: exit 0 within its stop_grace_period, and its log shows "shutting
 * down gracefully" then "closed".
 */
export async function gracefulStop(compose: Compose, service: string): Promise<string> {
  const id = await compose.containerId(service)
  if (!id) throw new Failure(`no container for ${service}`)
  // compose's stop_grace_period; `docker stop` alone would use the engine's 10 s default.
  const timeout = (
    await exec('docker', ['inspect', '-f', '{{.Config.StopTimeout}}', id])
  ).stdout.trim()
  const grace = Number(timeout) > 0 ? Number(timeout) : 20
  const t0 = performance.now()
  const stopped = await exec('docker', ['stop', '-t', String(grace), id])
  const took = performance.now() - t0
  check(stopped.code === 0, `${service}: docker stop failed: ${stopped.stderr}`)
  const code = (await exec('docker', ['inspect', '-f', '{{.State.ExitCode}}', id])).stdout.trim()
  const logs = await exec('docker', ['logs', id])
  const lines = `${logs.stdout}${logs.stderr}`.split('\n')
  const shutting = lines.findLastIndex((l) => l.includes('"shutting down gracefully"'))
  const closed = lines.findLastIndex((l) => l.includes('"msg":"closed"'))
  const verdict = `exit ${code} after ${secs(took)} (grace ${grace} s)`
  check(code === '0', `${service}: docker stop: ${verdict}`)
  check(took < grace * 1000, `${service}: docker stop took the whole grace period: ${verdict}`)
  check(
    shutting >= 0 && closed > shutting,
    `${service}: no "shutting down gracefully" then "closed" in its logs:\n${lines.slice(-5).join('\n')}`,
  )
  return `${verdict}; logged "shutting down gracefully" → "closed"`
}
