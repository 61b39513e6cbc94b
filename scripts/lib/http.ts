import { type Answer, http, pool } from '../../e2e/test/support/client.js'
import { DashboardBrowser, uniqueEmail } from '../../e2e/test/support/dashboard.js'
import { Failure } from './run.js'

// The e2e suite's HTTP and dashboard helpers (fetch, a cookie jar, CSRF tokens): the scripted
// proofs sign up and create keys exactly as the suite does, over real HTTP.
export { type Answer, DashboardBrowser, http, pool, uniqueEmail }

/** Fails with the start of the body unless `res` has `status`. */
export function expectStatus(res: Answer, status: number, what: string): Answer {
  if (res.status !== status) {
    throw new Failure(`${what}: HTTP ${res.status}, expected ${status}: ${res.text.slice(0, 300)}`)
  }
  return res
}

export type Plan = 'FREE' | 'PRO' | 'ENTERPRISE'

export interface Account {
  email: string
  browser: DashboardBrowser
  keys: string[]
}

/** Signs up a fresh account on `plan` through the dashboard and creates `keys` API keys. */
export async function accountWithKeys(
  dataApiUrl: string,
  label: string,
  plan: Plan,
  keys = 1,
): Promise<Account> {
  const browser = new DashboardBrowser(dataApiUrl)
  const email = uniqueEmail(label)
  await browser.signUp(email, plan)
  const created: string[] = []
  for (let i = 1; i <= keys; i += 1) created.push((await browser.createKey(`${label}-${i}`)).key)
  return { email, browser, keys: created }
}

/** What GET /api/v1/data says about the key (the parts the proofs use). */
export interface KeyInfo {
  user: { id: string; email: string; plan: string }
  key: { id: string; prefix: string }
  quota: { limit: number; used: number; remaining: number }
}

export function bearer(key: string): { authorization: string } {
  return { authorization: `Bearer ${key}` }
}

/** GET /api/v1/data with `key`: 200 and its body, or a Failure. */
export async function keyInfo(dataApiUrl: string, key: string, what: string): Promise<KeyInfo> {
  const res = await http(`${dataApiUrl}/api/v1/data`, { headers: bearer(key) })
  return expectStatus(res, 200, what).json<KeyInfo>()
}
