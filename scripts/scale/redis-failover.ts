import { setTimeout as sleep } from 'node:timers/promises'
import type { Compose } from '../lib/compose.js'
import { waitFor } from '../lib/health.js'
import { accountWithKeys, keyInfo, pool } from '../lib/http.js'
import { check, count, type Run, secs } from '../lib/run.js'
import { clusterNodes, getOn, keySlot, loggedAt, otherNode, shardOf } from './redis.js'
import { DATA_API_URL } from './stack.js'

/** Requests counted before the master is lost: more than the outage can count in memory. */
const BEFORE = 300
const OUTAGE_INTERVAL_MS = 100
const OUTAGE_MAX_MS = 30_000
const AFTER = 20

interface Answered {
  /** quota.used in the answer: from Redis when above BEFORE, else counted in memory. */
  used: number
  ms: number
}

async function answered(key: string, when: string): Promise<Answered> {
  const t0 = performance.now()
  const info = await keyInfo(DATA_API_URL, key, `GET /api/v1/data ${when}`)
  return { used: info.quota.used, ms: performance.now() - t0 }
}

/**
 * Counting resumed exactly: the answers counted in Redis (above BEFORE) go up by one per request
 * from BEFORE + 1, except for requests answered from memory meanwhile whose command still reached
 * the new master after the replica gave up waiting (counted there once, so a step of more than
 * one, never more than such answers); and the last AFTER answers go up by exactly one each.
 */
function resumedExactly(answers: Answered[]): { last: number; summary: string } {
  const counted = answers.filter((a) => a.used > BEFORE).map((a) => a.used)
  const inMemory = answers.length - counted.length
  const first = counted[0] ?? 0
  const last = counted.at(-1) ?? 0
  const increasing = counted.every((used, i) => i === 0 || used > (counted[i - 1] ?? 0))
  const steady = counted
    .slice(-AFTER)
    .every((used, i, all) => i === 0 || used === (all[i - 1] ?? 0) + 1)
  const extra = last - BEFORE - counted.length
  check(
    increasing && steady && extra >= 0 && extra <= inMemory,
    `after the failover the counts were ${counted.join(', ')} (${inMemory} answered from memory); ` +
      `expected one more per request from ${BEFORE + 1}`,
  )
  const late =
    extra > 0 ? ` (${extra} of the ${inMemory} answered from memory reached Redis too)` : ''
  return { last, summary: `${first} … ${last} for ${counted.length} requests${late}` }
}

/**
 * (c) The Redis master holding a key's quota is stopped: requests keep being answered (fail
 * open, counted in memory meanwhile), its replica is promoted, counting resumes from the
 * replicated value exactly, and the old master rejoins as a replica once started again.
 */
export async function redisFailover(run: Run, compose: Compose): Promise<void> {
  const { keys } = await accountWithKeys(DATA_API_URL, 'scale-failover', 'PRO')
  const key = keys[0] as string
  const first = await keyInfo(DATA_API_URL, key, 'GET /api/v1/data')
  await pool(BEFORE - 1, 10, () =>
    keyInfo(DATA_API_URL, key, 'GET /api/v1/data before the failover'),
  )
  const day = new Date(Date.now()).toISOString().slice(0, 10)
  const redisKey = `quota:{${first.key.id}}:${day}`
  const slot = await keySlot(compose, 'redis-1', redisKey)
  const { master, replica } = await shardOf(compose, 'redis-1', slot)
  await waitFor(
    `${BEFORE} counted on ${master.service} and replicated to ${replica.service}`,
    async () =>
      (await getOn(compose, master.service, redisKey)) === BEFORE &&
      (await getOn(compose, replica.service, redisKey)) === BEFORE,
    10_000,
  )
  run.log(
    `  ${redisKey} (slot ${slot}) = ${BEFORE} on master ${master.service} and replica ${replica.service}`,
  )

  const observer = otherNode([master.service, replica.service])
  const t0 = performance.now()
  await compose.ok(['stop', '-t', '10', master.service], 60_000)
  run.log(
    `  ${master.service} stopped in ${secs(performance.now() - t0)}; requests go on meanwhile`,
  )

  // Requests while the cluster fails over: every one must be answered 200.
  let promotedAt: number | undefined
  const outage: Answered[] = []
  const promotion = waitFor(
    `${replica.service} promoted to master`,
    async () => {
      const nodes = await clusterNodes(compose, observer)
      const promoted = nodes.find((n) => n.id === replica.id)?.master ?? false
      if (promoted) promotedAt = performance.now()
      return promoted
    },
    OUTAGE_MAX_MS,
    200,
  )
  // Awaited below; handled now so a failing request meanwhile is the error reported.
  promotion.catch(() => {})
  while (promotedAt === undefined && performance.now() - t0 < OUTAGE_MAX_MS) {
    outage.push(await answered(key, 'during the failover'))
    await sleep(OUTAGE_INTERVAL_MS)
  }
  await promotion
  const promotionMs = (promotedAt ?? performance.now()) - t0
  // From the nodes' own logs: the master's last line, and the replica winning its election.
  const gone = await loggedAt(compose, master.service, 'ready to exit, bye bye')
  const won = await loggedAt(compose, replica.service, 'Failover election won')
  const electedMs = gone !== undefined && won !== undefined ? won - gone : undefined
  const slowest = Math.max(0, ...outage.map((a) => a.ms))
  run.log(
    `  ${replica.service} is master ${secs(promotionMs)} after the stop; ${outage.length} requests ` +
      `answered 200 meanwhile (slowest ${Math.round(slowest)} ms), counts ${outage.map((a) => a.used).join(', ')}`,
  )

  // Then until AFTER answers have been counted in Redis again.
  const after: Answered[] = []
  const resumed = await waitFor(
    'counting resumed in Redis',
    async () => {
      after.push(await answered(key, 'after the failover'))
      return after.filter((a) => a.used > BEFORE).length >= AFTER
    },
    30_000,
    50,
  )
  run.log(`  after the promotion: counts ${after.map((a) => a.used).join(', ')}`)
  const verdict = resumedExactly([...outage, ...after])
  const stored = await getOn(compose, replica.service, redisKey)
  check(
    stored === verdict.last,
    `${replica.service} holds ${stored}, the last answer said ${verdict.last}`,
  )

  const t1 = performance.now()
  await compose.ok(['start', master.service], 60_000)
  const rejoined = await waitFor(
    `${master.service} back as a replica of ${replica.service}`,
    async () => {
      const nodes = await clusterNodes(compose, observer)
      const old = nodes.find((n) => n.id === master.id)
      return Boolean(
        old && !old.master && !old.failed && old.connected && old.masterId === replica.id,
      )
    },
    60_000,
    200,
  )
  run.log(
    `  ${master.service} rejoined as a replica ${secs(rejoined)} after its start (${secs(performance.now() - t1)})`,
  )
  run.figure(
    '(c) Redis master lost',
    `${master.service} (slot ${slot}) stopped: ${count(outage.length)} requests answered 200 meanwhile (fail open); ` +
      `${replica.service} promoted ${electedMs === undefined ? '' : `${secs(electedMs)} after the master exited (its logs), `}seen as master ${secs(promotionMs)} after the stop command; counting in Redis resumed from the replicated ${BEFORE}: ` +
      `${verdict.summary}, ${secs(resumed)} after the promotion; ${master.service} rejoined as a replica in ${secs(rejoined)}`,
  )
}
