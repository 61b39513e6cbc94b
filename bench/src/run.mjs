// pnpm bench: measures the reference servers, then every scenario of scenarios/index.mjs against
// its reference, then the scale scenario; prints tables and writes results/latest.json.
// Exit code 0 whatever the PASS/FAIL verdicts; 1 when the harness fails (a server does not start,
// a scenario gets errors or non-2xx responses); 130 on Ctrl-C.
import { execFileSync } from 'node:child_process'
import os from 'node:os'
import { compare } from './compare.mjs'
import { infra, settings } from './config.mjs'
import { measure } from './measure.mjs'
import { deleteRunKeys } from './redis-keys.mjs'
import { references, startReference } from './references.mjs'
import { rssChecks, rssTable, scaleTable, scenarioTable, table, writeResults } from './report.mjs'
import { runScale } from './scale.mjs'
import scenarios from './scenarios/index.mjs'
import { stopAll, stopProcess } from './servers.mjs'
import { startService } from './services.mjs'

const log = (line) => console.log(line)

function gitRevision() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim()
    return dirty ? `${head} (with uncommitted changes)` : head
  } catch {
    return undefined
  }
}

const report = {
  startedAt: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryMb: Math.round(os.totalmem() / 1024 / 1024),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg(),
  },
  revision: gitRevision(),
  settings: { ...settings, redisPrefix: infra.redisPrefix },
  notes: [
    'Every request comes from one address, so the quotes service runs with ' +
      'RATE_LIMIT_MAX=1000000000; with the default ceiling (1,000 per minute per address) ' +
      'nearly every request would be refused with 429.',
    `The machine is noisy (${os.cpus().length} CPUs shared by autocannon, the server under test ` +
      'and whatever else runs): reference and scenario are measured back to back, alternating, ' +
      `${settings.rounds} round(s) each, and the ratio uses the median req/s of each side.`,
  ],
  references: [],
  scenarios: [],
  rss: [],
  scale: undefined,
}

/** Each reference alone, once: its own numbers, and a check that it works. */
async function measureReferences(started) {
  for (const [name, reference] of Object.entries(references)) {
    const load = { connections: settings.connections, warmup: settings.warmup }
    const result = await measure(
      { url: `${started[name].url}/` },
      { ...load, duration: settings.duration, pid: started[name].handle.pid },
    )
    log(`  reference ${name}: ${result.rps.toFixed(0)} req/s`)
    report.references.push({ name, label: reference.label, ...result })
    if (result.non2xx + result.errors + result.timeouts > 0) {
      throw new Error(`reference ${name}: ${result.non2xx} non-2xx, ${result.errors} errors`)
    }
  }
}

async function runScenarios(started) {
  const byService = new Map()
  for (const s of scenarios) byService.set(s.service, [...(byService.get(s.service) ?? []), s])
  for (const [name, list] of byService) {
    log(`\n${name}: recreating its database and starting the production build`)
    const service = await startService(name)
    try {
      for (const scenario of list) {
        log(`${scenario.name}`)
        const result = await compare(scenario, {
          service,
          reference: started[scenario.reference],
          log,
        })
        if (result.error) log(`  ERROR: ${result.error}`)
        report.scenarios.push(result)
        if (service.handle.exitCode !== undefined) {
          throw new Error(
            `${name} exited (${service.handle.exitCode}) during "${scenario.name}". ` +
              `Last output:\n${service.handle.tail()}`,
          )
        }
      }
    } finally {
      await stopProcess(service.handle)
    }
  }
  report.rss = rssChecks(report.scenarios)
}

function printReport() {
  log(
    `\n== Results (${report.startedAt}, ${report.machine.cpus} CPUs, node ${report.machine.node})`,
  )
  log(
    `${settings.connections} connections, ${settings.warmup} s warm-up + ${settings.duration} s ` +
      `per measurement, median of ${settings.rounds} alternating round(s)`,
  )
  if (report.references.length > 0) {
    log(
      `\nReferences (alone):\n${table(
        [
          ['reference', (r) => r.name, 'left'],
          ['what', (r) => r.label, 'left'],
          ['req/s', (r) => r.rps.toFixed(0)],
          ['p50 ms', (r) => r.p50.toFixed(1)],
          ['p99 ms', (r) => r.p99.toFixed(1)],
        ],
        report.references,
      )}`,
    )
  }
  if (report.scenarios.length > 0) log(`\nScenarios:\n${scenarioTable(report.scenarios)}`)
  if (report.rss.length > 0) log(`\n${rssTable(report.rss)}`)
  if (report.scale) log(`\nScale:\n${scaleTable(report.scale)}`)
  else log(`\nScale: ${settings.scale === 0 ? 'skipped (BENCH_SCALE=0)' : 'not run'}`)
  for (const note of report.notes) log(`\nNote: ${note}`)
  if (report.error) log(`\nHARNESS ERROR: ${report.error}`)
}

async function cleanup() {
  await stopAll()
  try {
    const deleted = await deleteRunKeys()
    log(`Deleted ${deleted} Redis keys under ${infra.redisPrefix}`)
  } catch (error) {
    log(`Could not delete the Redis keys under ${infra.redisPrefix}: ${error.message}`)
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`\n${signal}: stopping every process started by the benchmark`)
    cleanup().finally(() => process.exit(130))
  })
}

async function main() {
  log(`Benchmark: ${JSON.stringify(report.settings)}`)
  const started = {}
  try {
    log('\nStarting the reference servers')
    for (const name of Object.keys(references)) started[name] = await startReference(name)
    await measureReferences(started)
    await runScenarios(started)
    for (const { handle } of Object.values(started)) await stopProcess(handle)
    if (settings.scale > 0) {
      log(`\nScale: ${settings.scale} synthetic quotes`)
      report.scale = await runScale({ log })
    }
  } catch (error) {
    report.error = error.message
  } finally {
    await cleanup()
  }
  report.finishedAt = new Date().toISOString()
  report.machine.loadAverageAtEnd = os.loadavg()
  const errors = [
    ...report.scenarios,
    ...(report.scale ? [...report.scale.searches, report.scale.cold] : []),
  ].filter((r) => r.status === 'ERROR')
  if (!report.error && errors.length > 0) {
    report.error = `${errors.length} measurement(s) got errors or non-2xx responses`
  }
  const stamped = await writeResults(report)
  printReport()
  log(`\nWritten: bench/results/latest.json and ${stamped}`)
  process.exitCode = report.error ? 1 : 0
}

await main()
