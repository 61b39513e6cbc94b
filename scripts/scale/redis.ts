import type { Compose } from '../lib/compose.js'
import { exec } from '../lib/exec.js'
import { check, Failure } from '../lib/run.js'
import { REDIS_NODES, redisServiceAt } from './stack.js'

/** One line of CLUSTER NODES. */
export interface ClusterNode {
  id: string
  address: string
  service: string
  master: boolean
  failed: boolean
  connected: boolean
  /** The master's id for a replica, `-` for a master. */
  masterId: string
  /** Slot ranges served, e.g. [[0, 5460]]. */
  slots: Array<[number, number]>
}

/** redis-cli inside `service`'s container; `commands` run in one session (e.g. READONLY first). */
export async function redisCli(
  compose: Compose,
  service: string,
  commands: string[][],
): Promise<string> {
  const script = commands.map((c) => c.join(' ')).join('\n')
  const out = await compose.run(
    ['exec', '-T', service, 'sh', '-c', 'printf "%s\\n" "$1" | redis-cli', 'sh', script],
    30_000,
  )
  if (out.code !== 0) throw new Failure(`redis-cli in ${service} exited ${out.code}: ${out.stderr}`)
  return out.stdout.replace(/\r/g, '')
}

export function parseClusterNodes(text: string): ClusterNode[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [id = '', endpoint = '', flags = '', masterId = '', , , , link = '', ...slots] =
        line.split(' ')
      const address = endpoint.split(':')[0] ?? ''
      return {
        id,
        address,
        service: redisServiceAt(address) ?? address,
        master: flags.split(',').includes('master'),
        failed: /(^|,)fail\??(,|$)/.test(flags),
        connected: link === 'connected',
        masterId,
        slots: slots
          .filter((s) => /^\d+(-\d+)?$/.test(s))
          .map((s) => {
            const [from, to] = s.split('-').map(Number)
            return [from ?? 0, to ?? from ?? 0] as [number, number]
          }),
      }
    })
}

/** The cluster as `via` sees it. */
export async function clusterNodes(compose: Compose, via: string): Promise<ClusterNode[]> {
  return parseClusterNodes(await redisCli(compose, via, [['CLUSTER', 'NODES']]))
}

export async function keySlot(compose: Compose, via: string, key: string): Promise<number> {
  return Number((await redisCli(compose, via, [['CLUSTER', 'KEYSLOT', key]])).trim())
}

/** The master serving `slot` and its replica, as `via` sees them. */
export async function shardOf(compose: Compose, via: string, slot: number) {
  const nodes = await clusterNodes(compose, via)
  const master = nodes.find((n) => n.master && n.slots.some(([a, b]) => slot >= a && slot <= b))
  const replica = master && nodes.find((n) => n.masterId === master.id)
  if (!master || !replica) throw new Failure(`no master with a replica serves slot ${slot}`)
  return { master, replica }
}

/** GET on any node, replicas included (READONLY). */
export async function getOn(compose: Compose, service: string, key: string): Promise<number> {
  const out = await redisCli(compose, service, [['READONLY'], ['GET', key]])
  const value = out.trim().split('\n').at(-1) ?? ''
  return value === '' ? 0 : Number(value)
}

/** A node other than `excluded`, to ask about the cluster. */
export const otherNode = (excluded: string[]) =>
  REDIS_NODES.find((node) => !excluded.includes(node)) ?? 'redis-1'

const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ')

/**
 * When `service` last logged a line containing `text` (epoch ms), from Redis's own timestamps
 * (`1:M 23 Nov 2026 21:41:30.898 # ...`, UTC in the containers): sharper than polling.
 */
export async function loggedAt(
  compose: Compose,
  service: string,
  text: string,
): Promise<number | undefined> {
  const id = await compose.containerId(service)
  if (!id) return undefined
  const out = await exec('docker', ['logs', id])
  const line = `${out.stdout}\n${out.stderr}`.split('\n').findLast((l) => l.includes(text))
  const m = line && /(\d{1,2}) (\w{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2})\.(\d{3})/.exec(line)
  if (!m) return undefined
  const [, day, , year, h, min, s, ms] = m.map(Number) as number[]
  return Date.UTC(year as number, MONTHS.indexOf(m[2] as string), day, h, min, s, ms)
}

/** The one-shot that formed the cluster, run again, leaves it as it is and exits 0. */
export async function clusterInitIsIdempotent(compose: Compose): Promise<void> {
  await compose.ok(['start', 'redis-cluster-init'], 120_000)
  const id = await compose.containerId('redis-cluster-init')
  for (const deadline = Date.now() + 60_000; ; ) {
    const state = await exec('docker', [
      'inspect',
      '-f',
      '{{.State.Status}} {{.State.ExitCode}}',
      id ?? '',
    ])
    const [status, code] = state.stdout.trim().split(' ')
    if (status === 'exited') {
      if (code !== '0') throw new Failure(`redis-cluster-init run again exited ${code}`)
      break
    }
    if (Date.now() > deadline)
      throw new Failure('redis-cluster-init run again did not finish in 60 s')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const logs = await exec('docker', ['logs', id ?? ''])
  // The last decision it logged: "forming the cluster" (the first run) or "already formed".
  const decision = logs.stdout
    .split('\n')
    .findLast((l) => l.includes('forming the cluster') || l.includes('already formed'))
  check(
    decision?.includes('already formed') ?? false,
    `redis-cluster-init run again did not find the cluster formed: ${decision ?? '(nothing logged)'}`,
  )
}
