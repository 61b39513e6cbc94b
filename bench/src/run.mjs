// One benchmark run: the selected throughput scenarios (each against its reference), then the
// scale passes, then the heavy-input pass; prints the tables and keeps results/<time>.json.
// Exit code: 0 whatever the PASS/FAIL verdicts; 1 when the harness fails or a measurement is an
// ERROR (a server does not start, over 1 % non-2xx, a refused request...); 130 on Ctrl-C.
import { execFileSync } from 'node:child_process'
import os from 'node:os'
import { infra, settings } from './config.mjs'
import { runHeavy } from './heavy.mjs'
import { CLOCK_TICKS } from './proc.mjs'
import { progress } from './progress.mjs'
import { deleteRunKeys } from './redis-keys.mjs'
import { references, startReference } from './references.mjs'
import {
  heavyTables,
  ratioText,
  rssChecks,
  rssTable,
  scaleTables,
  scenarioTable,
} from './report.mjs'
import { writeRun } from './results.mjs'
import { runRounds } from './rounds.mjs'
import { runScale } from './scale.mjs'
import { throughput } from './scenarios/index.mjs'
import { stopAll, stopProcess } from './servers.mjs'
import { dropCreatedDatabases, startService } from './services.mjs'
import { ensureWrk, stopWrk } from './wrk.mjs'

function gitRevision() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim()
    return dirty ? `${head} (with uncommitted changes)` : head
  } catch {
    return undefined
  }
}

function newReport(selected) {
  return {
    startedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryMb: Math.round(os.totalmem() / 1024 / 1024),
      platform: `${os.platform()} ${os.release()}`,
      node: process.version,
      clockTicks: CLOCK_TICKS,
      loadAverageAtStart: os.loadavg(),
    },
    revision: gitRevision(),
    settings: { ...settings, redisPrefix: infra.redisPrefix },
    selected: [...selected],
    scenarios: [],
    rss: [],
    scale: undefined,
    heavy: undefined,
  }
}

/** Throughput scenarios, one service at a time, each against its reference (started once). */
async function runThroughput(report, selected) {
  const chosen = throughput.filter((s) => selected.has(s.name))
  if (chosen.length === 0) return
  const started = {}
  try {
    for (const name of new Set(chosen.map((s) => s.reference))) {
      progress(`starting reference ${name} (${references[name].label})`)
      started[name] = await startReference(name)
    }
    const byService = new Map()
    for (const s of chosen) byService.set(s.service, [...(byService.get(s.service) ?? []), s])
    for (const [name, list] of byService) {
      progress(`starting ${name} (fresh database, production build)`)
      const service = await startService(name)
      try {
        for (const scenario of list) {
          const result = await runRounds(scenario, {
            service,
            reference: started[scenario.reference],
            progress,
          })
          progress(
            `${scenario.name}: ${result.cpuUs?.toFixed(1) ?? '-'} µs/req, ratio ` +
              `${ratioText(result.ratio)} (target ${scenario.target}): ${result.status}` +
              (result.error ? `: ${result.error}` : ''),
          )
          report.scenarios.push(result)
          if (service.handle.exitCode !== undefined) {
            throw new Error(
              `${name} exited (${service.handle.exitCode}) during ${scenario.name}. ` +
                `Last output:\n${service.handle.tail()}`,
            )
          }
        }
      } finally {
        await stopProcess(service.handle)
      }
    }
  } finally {
    for (const { handle } of Object.values(started)) await stopProcess(handle)
  }
}

function printReport(report) {
  const log = (text) => console.log(text)
  log(`\n== Results of ${report.startedAt} (${report.revision ?? 'no git revision'})`)
  log(
    // The model matters: the same code's ratios were 0.63-0.78 on one CPU, 0.53-0.58 on another.
    `${report.machine.cpus} CPUs (${report.machine.cpuModel ?? 'model unknown'}), ` +
      `node ${report.machine.node}; wrk -t${settings.threads} ` +
      `-c${settings.connections}, ${settings.warmup} s warm-up + ${settings.duration} s measured, ` +
      `median of ${settings.rounds} alternating rounds; load average ` +
      `${report.machine.loadAverageAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ` +
      `${report.machine.loadAverageAtEnd.map((l) => l.toFixed(2)).join(' ')} at end`,
  )
  if (report.scenarios.length > 0) {
    log('\nServer CPU per request (ratio = reference µs / scenario µs):')
    log(scenarioTable(report.scenarios))
  }
  if (report.rss.length > 0) log(`\n${rssTable(report.rss)}`)
  if (report.scale) log(`\nScale:\n${scaleTables(report.scale)}`)
  if (report.heavy) log(`\nHeavy input:\n${heavyTables(report.heavy)}`)
  for (const note of report.notes ?? []) log(`\nNote: ${note}`)
  if (report.error) log(`\nHARNESS ERROR: ${report.error}`)
}

let cleaning
/** Stops everything the run started and deletes its keys and databases; once per run. */
function cleanup() {
  cleaning ??= stopAndDelete()
  return cleaning
}

async function stopAndDelete() {
  stopWrk()
  await stopAll()
  try {
    const deleted = await deleteRunKeys()
    progress(`deleted ${deleted} Redis keys under ${infra.redisPrefix}`)
  } catch (error) {
    progress(`could not delete the Redis keys under ${infra.redisPrefix}: ${error.message}`)
  }
  try {
    await dropCreatedDatabases()
  } catch (error) {
    progress(`could not drop the run's databases: ${error.message}`)
  }
}

/** Runs the `selected` names (see scenarios/index.mjs); resolves to the exit code. */
export async function run(selected) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      progress(`${signal}: stopping every process the benchmark started`)
      cleanup().finally(() => process.exit(130))
    })
  }
  const report = newReport(selected)
  report.notes = []
  progress(`benchmark of ${[...selected].join(', ')}`)
  try {
    report.wrk = ensureWrk(progress)
    await runThroughput(report, selected)
    report.rss = rssChecks(report.scenarios)
    const scalePasses = [...selected].filter((name) => name.startsWith('scale/'))
    if (scalePasses.length > 0 && settings.scale === 0) {
      report.notes.push(`BENCH_SCALE=0: ${scalePasses.join(', ')} skipped`)
    } else if (scalePasses.length > 0) {
      report.scale = await runScale({ selected, progress })
    }
    if (selected.has('heavy/parallel-1mb')) {
      report.heavy = await runHeavy({ progress })
      report.rss = rssChecks(report.scenarios, report.heavy)
    }
  } catch (error) {
    report.error = error.message
  } finally {
    await cleanup()
  }
  report.finishedAt = new Date().toISOString()
  report.machine.loadAverageAtEnd = os.loadavg()
  const errors = [...report.scenarios, ...(report.scale?.passes ?? []), report.heavy].filter(
    (r) => r?.status === 'ERROR',
  )
  if (!report.error && errors.length > 0) {
    report.error = `${errors.map((r) => r.name).join(', ')}: ERROR (see above)`
  }
  const file = await writeRun(report)
  printReport(report)
  console.log(`\nKept: ${file}\nCompare with earlier runs: pnpm bench --compare`)
  return report.error ? 1 : 0
}
