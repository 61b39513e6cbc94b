/**
 * pnpm test:compose: proves the plain Docker deployment (docker-compose.yml) end to end. Not
 * part of .ci/run. With no Docker engine it starts the docker-sandbox when it finds one.
 *
 *   1. clean start: `down -v`, `build` (timed; the images checked: non-root, production, no dev
 *      tooling or sources), `up -d`, every service healthy (start-up timed);
 *   2. smoke checks, then the end-to-end suite (`pnpm test:e2e`) against the stack;
 *   3. persistence: sign up, create a key, `down` (volumes kept), `up -d`: the key still
 *      answers for the same user and its quota count survived;
 *   4. graceful stop: `docker stop` of each service exits 0 within its grace period, logging
 *      "shutting down gracefully" then "closed";
 * then a summary (image sizes, timings). The stack is left down, volumes kept unless --clean.
 *
 * Usage: pnpm test:compose [--clean] [--no-cache] [--keep-up]
 *   --clean      also delete the volumes at the end (down -v)
 *   --no-cache   build the images from scratch (a cold build time)
 *   --keep-up    leave the stack running at the end
 * Environment: QUOTES_PORT, DATA_API_PORT (default 3000, 3001), HEALTH_TIMEOUT (s, default 240).
 */
import { checkImages, gracefulStop, runE2e, smokeChecks } from './compose/checks.js'
import { Compose, ROOT } from './lib/compose.js'
import { exec } from './lib/exec.js'
import { waitHealthy } from './lib/health.js'
import { accountWithKeys, keyInfo } from './lib/http.js'
import { check, Run, secs } from './lib/run.js'
import { openStack } from './lib/stack.js'

const FLAGS = ['--clean', '--no-cache', '--keep-up']
const args = process.argv.slice(2)
for (const arg of args) {
  if (!FLAGS.includes(arg)) {
    process.stderr.write(
      `unknown argument: ${arg} (usage: pnpm test:compose ${FLAGS.map((f) => `[${f}]`).join(' ')})\n`,
    )
    process.exit(2)
  }
}
const clean = args.includes('--clean')
const noCache = args.includes('--no-cache')
const keepUp = args.includes('--keep-up')
// biome-ignore lint/suspicious/noUndeclaredEnvVars: a script of its own, not a turbo task
const healthTimeoutMs = Number(process.env.HEALTH_TIMEOUT || 240) * 1000
// biome-ignore lint/suspicious/noUndeclaredEnvVars: compose publishes the same ports
const QUOTES_URL = `http://localhost:${process.env.QUOTES_PORT || 3000}`
// biome-ignore lint/suspicious/noUndeclaredEnvVars: compose publishes the same ports
const DATA_API_URL = `http://localhost:${process.env.DATA_API_PORT || 3001}`
const SERVICES = ['quotes', 'data-api']

const run = new Run('test:compose')
// Sign-ups all come from this machine: raised as for any test stack (the suite makes several).
const compose = new Compose('docker-compose.yml', { AUTH_RATE_LIMIT_PER_ADDRESS: '1000' })

/** `up -d` and every service healthy; a figure with the time to healthy of each. */
async function upAndHealthy(label: string, services: string[]): Promise<void> {
  const t0 = performance.now()
  const healthy = await waitHealthy(compose, services, {
    alongside: compose.ok(['up', '-d'], 600_000),
    since: t0,
    timeoutMs: healthTimeoutMs,
    log: (m) => run.log(m),
  })
  const each = [...healthy].map(([service, h]) => `${service} ${secs(h.ownMs)}`).join(', ')
  run.figure(
    label,
    `${secs(performance.now() - t0)} from \`up -d\` to all healthy; container start → healthy: ${each}`,
  )
}

await run.main(
  async () => {
    const services = await openStack(run, compose, { keepUp, deleteVolumes: clean })

    await run.step('clean start', async () => {
      await compose.down(true)
      const t0 = performance.now()
      await compose.ok(['build', ...(noCache ? ['--no-cache'] : [])], 1_800_000)
      run.figure(
        `build (docker compose build${noCache ? ' --no-cache' : ''})`,
        secs(performance.now() - t0),
      )
      await checkImages(compose, SERVICES)
      run.log(
        '  images: run as node, NODE_ENV=production, EMBEDDED_STORES=off, HEALTHCHECK, no dev tooling or sources',
      )
      await upAndHealthy('start-up, empty volumes (initdb, migrations, seed)', services)
    })

    await run.step('checks against the stack', async () => {
      const total = await smokeChecks(QUOTES_URL, DATA_API_URL)
      run.log(`  smoke checks passed (${total.toLocaleString('en-US')} quotes seeded)`)
      const t0 = performance.now()
      const result = await runE2e(ROOT, QUOTES_URL, DATA_API_URL)
      run.figure('e2e suite', `PASSED in ${secs(performance.now() - t0)} (${result})`)
    })

    await run.step('persistence across down / up', async () => {
      const { email, keys } = await accountWithKeys(DATA_API_URL, 'compose-persistence', 'PRO')
      const key = keys[0] as string
      const before = await keyInfo(DATA_API_URL, key, 'GET /api/v1/data with the new key')
      check(before.user.email === email, 'GET /api/v1/data: another user')
      run.log(
        `  ${email} (user ${before.user.id}) has key ${before.key.prefix}…; quota used ${before.quota.used}`,
      )
      await compose.ok(['down'], 300_000)
      check((await compose.run(['ps', '-q'])).stdout.trim() === '', 'containers left after down')
      await upAndHealthy('start-up, existing volumes', services)
      const after = await keyInfo(DATA_API_URL, key, 'GET /api/v1/data after down/up')
      check(
        after.user.id === before.user.id && after.user.email === email,
        'after down/up: not the same user',
      )
      check(
        after.quota.used === before.quota.used + 1,
        `the quota count did not survive down/up (Redis): ${before.quota.used} then ${after.quota.used}`,
      )
      run.figure(
        'persistence (down, up)',
        `PASSED: key ${before.key.prefix}… → 200, same user; quota count kept (${before.quota.used} → ${after.quota.used})`,
      )
    })

    await run.step('graceful stop', async () => {
      for (const service of ['data-api', 'quotes']) {
        run.figure(`docker stop ${service}`, await gracefulStop(compose, service))
      }
    })

    for (const service of SERVICES) {
      const ref = await compose.image(service)
      const size = await exec('docker', ['image', 'ls', '--format', '{{.Size}} {{.ID}}', ref])
      run.figure(`image ${ref}`, size.stdout.trim())
    }
    const base = await exec('docker', [
      'image',
      'ls',
      '--format',
      '{{.Size}} {{.ID}}',
      'node:24-bookworm-slim',
    ])
    run.figure('image node:24-bookworm-slim (base of both)', base.stdout.trim())
  },
  async () => {
    run.log(`state and recent logs of the stack:\n${await compose.diagnostics()}`)
  },
)
