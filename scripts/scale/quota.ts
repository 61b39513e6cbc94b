import type { Compose } from '../lib/compose.js'
import { accountWithKeys, bearer } from '../lib/http.js'
import { check, count, type Run, secs } from '../lib/run.js'
import { getOn, keySlot, shardOf } from './redis.js'
import { DATA_API_URL } from './stack.js'

const CONCURRENT = 1_500
const FREE_LIMIT = 1_000

/** Which replica answered: the instance part of X-Request-Id (`<instance>-<sequence>`). */
export const instanceOf = (headers: Headers): string =>
  (headers.get('x-request-id') ?? '?').split('-')[0] ?? '?'

/**
 * (a) 1,500 requests at once through HAProxy on one FREE key: exactly 1,000 answered 200, the
 * other 500 refused 429, both replicas answering, and the count in Redis exactly 1,000.
 */
export async function exactQuota(run: Run, compose: Compose): Promise<void> {
  const { keys } = await accountWithKeys(DATA_API_URL, 'scale-quota', 'FREE')
  const key = keys[0] as string
  const t0 = performance.now()
  const answers = await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      const res = await fetch(`${DATA_API_URL}/api/v1/data`, {
        headers: { ...bearer(key), 'user-agent': 'test-scale (quota)' },
        signal: AbortSignal.timeout(60_000),
      })
      const body = await res.text()
      return { status: res.status, instance: instanceOf(res.headers), body }
    }),
  )
  const took = performance.now() - t0
  const statuses = new Map<number, number>()
  for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1)
  const summary = [...statuses].map(([status, n]) => `${count(n)} × ${status}`).join(', ')
  const instances = new Set(answers.filter((a) => a.status === 200).map((a) => a.instance))
  run.log(`  ${count(CONCURRENT)} requests answered in ${secs(took)}: ${summary}`)
  check(
    statuses.get(200) === FREE_LIMIT && statuses.get(429) === CONCURRENT - FREE_LIMIT,
    `expected exactly ${count(FREE_LIMIT)} × 200 and ${count(CONCURRENT - FREE_LIMIT)} × 429, got ${summary}`,
  )
  check(instances.size >= 2, `only ${instances.size} replica(s) answered the 200s`)

  const ok = answers.find((a) => a.status === 200)
  const info = JSON.parse(ok?.body ?? '{}') as {
    key?: { id?: string }
    quota?: { resets_at?: string }
  }
  const day = new Date(Date.parse(info.quota?.resets_at ?? '') - 86_400_000)
    .toISOString()
    .slice(0, 10)
  const redisKey = `quota:{${info.key?.id}}:${day}`
  const slot = await keySlot(compose, 'redis-1', redisKey)
  const { master } = await shardOf(compose, 'redis-1', slot)
  const stored = await getOn(compose, master.service, redisKey)
  check(stored === FREE_LIMIT, `Redis holds ${stored} for ${redisKey}, expected ${FREE_LIMIT}`)
  run.figure(
    '(a) exact quota through the LB',
    `${count(CONCURRENT)} concurrent requests on one FREE key in ${secs(took)}: ${summary}; ` +
      `answered by ${instances.size} replicas; ${redisKey} = ${stored} on ${master.service}`,
  )
}
