import { PLAN_LIMITS, PLANS, type Plan } from '@repo/contracts'
import { CliError, UsageError } from '@repo/service-kit'
import { BY_ADMIN } from '../lib/account-events.js'
import type { User } from '../lib/accounts.js'
import type { ApiKeyRow } from '../lib/api-keys.js'
import { normalizeEmail } from '../lib/email.js'
import type { KeyCache } from '../lib/key-cache.js'
import { type KeyState, keyState } from '../lib/key-state.js'
import type { AdminStores } from './stores.js'

// The admin CLI's commands, on the service's own library functions: every change is written with
// its activity-log event (actor "admin") and announced to every instance over Redis pub/sub.

export interface KeyReport {
  id: string
  name: string
  prefix: string
  state: KeyState
  created_at: string
  last_used_at: string | null
  expires_at: string | null
  revoked_at: string | null
  /** Requests counted today (UTC); null when Redis cannot say. */
  used_today: number | null
  daily_limit: number
}

export interface AccountReport {
  id: string
  email: string
  plan: Plan
  created_at: string
  plan_changed_at: string
  disabled: boolean
  disabled_at: string | null
  keys: KeyReport[]
  warnings: string[]
}

export interface ActionReport {
  action: 'plan' | 'revoke' | 'reset' | 'disable' | 'enable'
  email: string
  /** False when there was nothing to do (the plan was already that, the account already so). */
  changed: boolean
  message: string
  warnings: string[]
}

const iso = (date: Date | null) => date?.toISOString() ?? null

async function userByEmail(stores: AdminStores, email: string): Promise<User> {
  const user = await stores.accounts.findByEmail(normalizeEmail(email))
  if (!user) throw new CliError(`no account has the e-mail address "${email}"`)
  return user
}

/** The user's key named by its id or its display prefix (`sk_AbC12345`, a trailing … allowed). */
/** The account of `email` and its key `ref` (an id or a display prefix). */
async function userAndKey(stores: AdminStores, email: string, ref: string) {
  const user = await userByEmail(stores, email)
  return { user, key: await userKey(stores, user, ref) }
}

async function userKey(stores: AdminStores, user: User, ref: string): Promise<ApiKeyRow> {
  const wanted = ref.replace(/(…|\.\.\.)$/, '')
  const matches = (await stores.apiKeys.list(user.id)).filter(
    (key) => key.id === wanted || key.display_prefix === wanted,
  )
  if (matches.length === 0) {
    throw new CliError(`${user.email} has no key with the id or prefix "${ref}" (see "user")`)
  }
  if (matches.length > 1) {
    const ids = matches.map((key) => key.id).join(', ')
    throw new CliError(
      `several keys of ${user.email} have the prefix "${ref}": name one by id (${ids})`,
    )
  }
  return matches[0] as ApiKeyRow
}

/** Announces a change to every instance; a warning when Redis cannot carry it. */
async function announce(
  stores: AdminStores,
  send: (cache: KeyCache) => Promise<void>,
): Promise<string[]> {
  const cache = stores.keyCache
  let why = stores.redisProblem
  if (cache) {
    const before = stores.lastRedisError()
    await send(cache)
    const failure = stores.lastRedisError()
    if (failure === undefined || failure === before) return []
    why = failure.message
  }
  return [
    `could not announce the change over Redis (${why}): instances whose own Redis subscription ` +
      'works keep their cached copy of the keys for up to KEY_CACHE_TTL_SECONDS',
  ]
}

export async function showAccount(stores: AdminStores, email: string): Promise<AccountReport> {
  const user = await userByEmail(stores, email)
  const keys = await stores.apiKeys.list(user.id)
  const now = new Date()
  const warnings: string[] = []
  let usage: Map<string, number> | undefined
  if (stores.quota) {
    const before = stores.lastRedisError()
    usage = await stores.quota.usage(keys.map((key) => key.id))
    const failure = stores.lastRedisError()
    if (failure && failure !== before) {
      usage = undefined
      warnings.push(`today's usage is unknown: ${failure.message}`)
    }
  } else {
    warnings.push(`today's usage is unknown: ${stores.redisProblem}`)
  }
  return {
    id: user.id,
    email: user.email,
    plan: user.plan,
    created_at: user.created_at.toISOString(),
    plan_changed_at: user.plan_changed_at.toISOString(),
    disabled: user.disabled_at !== null,
    disabled_at: iso(user.disabled_at),
    keys: keys.map((key) => ({
      id: key.id,
      name: key.name,
      prefix: key.display_prefix,
      state: keyState(key, now),
      created_at: key.created_at.toISOString(),
      last_used_at: iso(key.last_used_at),
      expires_at: iso(key.expires_at),
      revoked_at: iso(key.revoked_at),
      used_today: usage ? (usage.get(key.id) ?? 0) : null,
      daily_limit: PLAN_LIMITS[user.plan].dailyRequests,
    })),
    warnings,
  }
}

export async function changePlan(
  stores: AdminStores,
  email: string,
  planName: string,
): Promise<ActionReport> {
  const plan = planName.toUpperCase() as Plan
  if (!PLANS.includes(plan)) {
    throw new UsageError(`"${planName}" is not a plan: use one of ${PLANS.join(', ')}`)
  }
  const user = await userByEmail(stores, email)
  const changed = (await stores.accounts.changePlan(user.id, plan, BY_ADMIN)) === true
  const warnings = changed ? await announce(stores, (cache) => cache.evictUser(user.id)) : []
  const limit = PLAN_LIMITS[plan].dailyRequests.toLocaleString('en')
  return {
    action: 'plan',
    email: user.email,
    changed,
    message: changed
      ? `${user.email} is now on the ${plan} plan (was ${user.plan}; ${limit} requests per key per day from the next request)`
      : `${user.email} is already on the ${plan} plan: nothing changed`,
    warnings,
  }
}

export async function revokeKey(
  stores: AdminStores,
  email: string,
  ref: string,
): Promise<ActionReport> {
  const { user, key } = await userAndKey(stores, email, ref)
  if (key.revoked_at)
    throw new CliError(`the key ${key.display_prefix}… (“${key.name}”) is already revoked`)
  const hash = await stores.apiKeys.revoke(user.id, key.id, BY_ADMIN)
  const warnings = hash ? await announce(stores, (cache) => cache.evictKey(hash)) : []
  return {
    action: 'revoke',
    email: user.email,
    changed: hash !== undefined,
    message: `revoked the key ${key.display_prefix}… (“${key.name}”) of ${user.email}: it answers 401 from now on`,
    warnings,
  }
}

export async function resetKey(
  stores: AdminStores,
  email: string,
  ref: string,
): Promise<ActionReport> {
  const { user, key } = await userAndKey(stores, email, ref)
  if (!stores.quota) throw new CliError(`cannot reset today's count: ${stores.redisProblem}`)
  const used = await stores.quota.resetToday(key.id)
  await stores.events.record(user.id, 'key_usage_reset', BY_ADMIN, {
    name: key.name,
    prefix: key.display_prefix,
    used,
  })
  return {
    action: 'reset',
    email: user.email,
    changed: used > 0,
    message: `reset today's count of the key ${key.display_prefix}… (“${key.name}”) of ${user.email} from ${used.toLocaleString('en')} to 0`,
    warnings: [],
  }
}

export async function setDisabled(
  stores: AdminStores,
  email: string,
  disabled: boolean,
): Promise<ActionReport> {
  const user = await userByEmail(stores, email)
  const changed = (await stores.accounts.setDisabled(user.id, disabled, BY_ADMIN)) === true
  // Announced even when nothing changed: harmless, and it heals an earlier announcement lost.
  const warnings = await announce(stores, (cache) => cache.evictUser(user.id))
  const state = disabled ? 'disabled' : 'enabled'
  return {
    action: disabled ? 'disable' : 'enable',
    email: user.email,
    changed,
    message: !changed
      ? `${user.email} is already ${state}: nothing changed`
      : disabled
        ? `disabled ${user.email}: its keys answer 403 ACCOUNT_DISABLED, its sessions have ended and it cannot sign in`
        : `enabled ${user.email}: its keys and sign-in work again`,
    warnings,
  }
}
