import { setTimeout as sleep } from 'node:timers/promises'
import { accountWithKeys, bearer, expectStatus, http, keyInfo } from '../lib/http.js'
import { check, type Run } from '../lib/run.js'
import { instanceOf } from './quota.js'
import { DATA_API_URL } from './stack.js'

const LIMIT_MS = 1_000
const POLL_MS = 20
const CONFIRMATIONS = 10

/**
 * (e) A key in use on every replica (cached there) is revoked on the dashboard through HAProxy:
 * from the revocation's answer, how long until every request with it is refused (401), measured
 * as the last 200 seen; it must be under 1 s, then 10 requests in a row refused.
 */
export async function revocation(run: Run): Promise<void> {
  const { browser, keys } = await accountWithKeys(DATA_API_URL, 'scale-revoke', 'PRO')
  const key = keys[0] as string
  const { key: info } = await keyInfo(DATA_API_URL, key, 'GET /api/v1/data')
  // Warm every replica's key cache: until both have answered with it (round robin), bounded.
  const warmed = new Set<string>()
  for (let i = 0; i < 20 && warmed.size < 2; i += 1) {
    const res = expectStatus(
      await http(`${DATA_API_URL}/api/v1/data`, { headers: bearer(key) }),
      200,
      'GET /api/v1/data before the revocation',
    )
    warmed.add(instanceOf(res.headers))
  }
  check(warmed.size >= 2, `only ${warmed.size} replica(s) answered before the revocation`)

  const { done } = await browser.revoke(info.id)
  check(done.status === 303, `the revocation answered ${done.status}, expected 303`)
  const t0 = performance.now()
  let lastAccepted = -1
  let refusedInARow = 0
  const refusedBy = new Set<string>()
  while (refusedInARow < CONFIRMATIONS) {
    const res = await http(`${DATA_API_URL}/api/v1/data`, { headers: bearer(key) })
    const at = performance.now() - t0
    if (res.status === 200) {
      lastAccepted = at
      refusedInARow = 0
    } else {
      expectStatus(res, 401, 'GET /api/v1/data with the revoked key')
      refusedInARow += 1
      refusedBy.add(instanceOf(res.headers))
    }
    check(
      at < LIMIT_MS * 3,
      `the revoked key was still accepted ${Math.round(lastAccepted)} ms after the revocation`,
    )
    await sleep(POLL_MS)
  }
  check(
    lastAccepted < LIMIT_MS,
    `the revoked key was accepted ${Math.round(lastAccepted)} ms after the revocation`,
  )
  check(refusedBy.size >= 2, `only ${refusedBy.size} replica(s) refused it`)
  const accepted =
    lastAccepted < 0 ? 'never accepted again' : `last accepted ${Math.round(lastAccepted)} ms after`
  run.figure(
    '(e) revocation through the LB',
    `key ${info.prefix}… revoked on the dashboard: ${accepted}; then refused (401) by ${refusedBy.size} replicas, ${CONFIRMATIONS} requests in a row`,
  )
}
