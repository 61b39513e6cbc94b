/**
 * pnpm test:scale: the scale stack (docker-compose.scale.yml) proved in a Docker engine (the
 * docker-sandbox is started when no engine answers). Not part of .ci/run.
 *
 *   1. clean start: `down -v`, `up --build -d`, every container healthy, HAProxy routing to all
 *      four replicas (build and start-up timed);
 *   2. (a) exact daily quota: 1,500 concurrent requests on one FREE key through HAProxy;
 *   3. (b) rolling restart of every replica under wrk load: nothing failed, nothing lost;
 *   4. (c) the Redis master of a key's slot stopped: fail open, promotion, exact counting after;
 *   5. (d) PgBouncer restarted: both services recover without a restart;
 *   6. (e) a key revoked on the dashboard is refused by every replica within 1 s;
 * then `down -v`, also after a failure or Ctrl-C. Every request goes to 127.0.0.1.
 *
 * Usage: pnpm test:scale [--keep-up]   (--keep-up: leave the stack running at the end)
 * Environment: QUOTES_PORT, DATA_API_PORT, HAPROXY_STATS_PORT (default 3000, 3001, 8404),
 *   HEALTH_TIMEOUT (s, default 300).
 */
import { waitHealthy } from './lib/health.js'
import { Run, secs } from './lib/run.js'
import { openStack } from './lib/stack.js'
import { waitAllUp } from './scale/haproxy.js'
import { pgbouncerRestart } from './scale/pgbouncer.js'
import { exactQuota } from './scale/quota.js'
import { clusterInitIsIdempotent } from './scale/redis.js'
import { redisFailover } from './scale/redis-failover.js'
import { revocation } from './scale/revocation.js'
import { rollingRestart } from './scale/rolling-restart.js'
import { ONE_SHOT, REPLICAS, STATS_URL, scaleCompose } from './scale/stack.js'
import { checkWrk } from './scale/wrk.js'

const args = process.argv.slice(2)
for (const arg of args) {
  if (arg !== '--keep-up') {
    process.stderr.write(`unknown argument: ${arg} (usage: pnpm test:scale [--keep-up])\n`)
    process.exit(2)
  }
}
const keepUp = args.includes('--keep-up')
// biome-ignore lint/suspicious/noUndeclaredEnvVars: a script of its own, not a turbo task
const healthTimeoutMs = Number(process.env.HEALTH_TIMEOUT || 300) * 1000

const run = new Run('test:scale')
const compose = scaleCompose()

await run.main(
  async () => {
    await checkWrk()
    const services = await openStack(run, compose, { keepUp, deleteVolumes: true })

    await run.step('clean start of the scale stack', async () => {
      await compose.down(true)
      const t0 = performance.now()
      await compose.ok(['build'], 1_800_000)
      run.figure('build (docker compose build)', secs(performance.now() - t0))
      const t1 = performance.now()
      const healthy = await waitHealthy(compose, services, {
        alongside: compose.ok(['up', '-d'], 600_000),
        since: t1,
        timeoutMs: healthTimeoutMs,
        oneShot: ONE_SHOT,
        log: (m) => run.log(m),
      })
      await waitAllUp(
        STATS_URL,
        REPLICAS.map((r) => r.server),
        60_000,
      )
      const slowest = [...healthy].sort((a, b) => b[1].sinceMs - a[1].sinceMs)[0]
      run.figure(
        'start-up, empty volumes',
        `${secs(performance.now() - t1)} from \`up -d\` to every container healthy and HAProxy routing to all 4 replicas` +
          (slowest ? ` (last: ${slowest[0]})` : ''),
      )
      await clusterInitIsIdempotent(compose)
      run.log('  redis-cluster-init run again: found the cluster formed, left it as it is, exit 0')
    })
    await run.step('(a) exact quota through the load balancer', () => exactQuota(run, compose))
    await run.step('(b) rolling restart under load', () => rollingRestart(run, compose))
    await run.step('(c) a Redis master lost and failed over', () => redisFailover(run, compose))
    await run.step('(d) PgBouncer restarted', () => pgbouncerRestart(run, compose))
    await run.step('(e) revocation within 1 s', () => revocation(run))
  },
  async () => {
    run.log(`state and recent logs of the stack:\n${await compose.diagnostics()}`)
  },
)
