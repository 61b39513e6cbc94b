import type { Writable } from 'node:stream'
import { createRedisClient, type RedisClient } from '@repo/service-kit'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { QuotaStore, QuotaUnavailableError } from '../../src/lib/quota.js'
import { type RedisWithClient, startRedisWithClient } from '../support/private-redis.js'

/*
 * QuotaStore on a Redis of the test's own, which it stops: the counts, their expiry and the
 * day's boundaries while Redis answers; fail-open counting in memory (or fail-closed refusal)
 * while it does not. Days are in the future: Redis expires keys by its own clock.
 */

const DAY = 86_400_000
const today = Math.floor(Date.now() / DAY) * DAY
const dayName = (days: number) => new Date(today + days * DAY).toISOString().slice(0, 10)
const at = (days: number, time: string) => new Date(`${dayName(days)}T${time}Z`)

let redis: RedisWithClient
let client: RedisClient
let now = at(1, '12:00:00')
const clock = () => now
const failures: Error[] = []
const store = (failMode: 'open' | 'closed' = 'open', report = true) =>
  new QuotaStore(client, {
    clock,
    failMode,
    ...(report ? { onDegraded: (error: Error) => void failures.push(error) } : {}),
  })
let n = 0
const newKey = () => `key-${++n}`

const outage = <T>(during: () => Promise<T>) => redis.outage(during)

beforeAll(async () => {
  redis = await startRedisWithClient()
  client = redis.client
}, 60_000)
afterAll(async () => {
  await redis?.close()
})

describe('quota store, Redis answering', () => {
  it('counts under quota:{id}:<day>, expiring at the next UTC midnight, the shadow two days later', async () => {
    now = new Date(at(1, '23:59:58').getTime() + 500)
    const id = newKey()
    const decision = await store().consume(id, 3)
    expect(decision).toEqual({
      allowed: true,
      limit: 3,
      used: 1,
      remaining: 2,
      resetsAtIso: at(2, '00:00:00').toISOString(),
      resetSeconds: 2,
      degraded: false,
    })
    const midnight = at(2, '00:00:00').getTime() / 1000
    expect(await client.get(`quota:{${id}}:${dayName(1)}`)).toBe('1')
    expect(await client.call('EXPIRETIME', `quota:{${id}}:${dayName(1)}`)).toBe(midnight)
    expect(await client.get(`usage:{${id}}:${dayName(1)}`)).toBe('1')
    expect(await client.call('EXPIRETIME', `usage:{${id}}:${dayName(1)}`)).toBe(
      midnight + 2 * 86_400,
    )
  })

  it('sends the counts of one turn of the event loop in one write, each decided alone', async () => {
    const ids = [newKey(), newKey(), newKey(), newKey()]
    const quotas = store()
    // A single server's client: its socket.
    const stream = (client as unknown as { stream: Writable }).stream
    const writev = vi.spyOn(stream, '_writev')
    const write = vi.spyOn(stream, '_write')
    try {
      const decisions = await Promise.all(
        [...ids, ids[0] as string].map((id) => quotas.consume(id, 1)),
      )
      expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, false])
      expect(write).not.toHaveBeenCalled()
      expect(writev).toHaveBeenCalledTimes(1)
      expect(writev.mock.calls[0]?.[0]).toHaveLength(5)
    } finally {
      writev.mockRestore()
      write.mockRestore()
    }
  })

  it('refuses at the limit without counting, then starts again at midnight sharp', async () => {
    now = at(1, '23:00:00')
    const quota = store()
    const id = newKey()
    const used = []
    for (let i = 0; i < 4; i += 1) used.push(await quota.consume(id, 2))
    expect(used.map((d) => [d.allowed, d.used, d.remaining])).toEqual([
      [true, 1, 1],
      [true, 2, 0],
      [false, 2, 0],
      [false, 2, 0],
    ])
    expect(await client.get(`usage:{${id}}:${dayName(1)}`)).toBe('2')
    now = at(2, '00:00:00')
    expect(await quota.consume(id, 2)).toMatchObject({
      allowed: true,
      used: 1,
      resetSeconds: 86_400,
    })
    // A clock set back to the previous day counts that day again.
    now = at(1, '23:59:59')
    expect(await quota.consume(id, 5)).toMatchObject({ allowed: true, used: 3 })
  })

  it('refunds a counted request in the quota and its shadow, never below zero', async () => {
    now = at(1, '10:00:00')
    // On a client of its own: the first store on a client defines the scripts there.
    const own = createRedisClient({ url: redis.redis.url })
    await own.connect()
    const quota = new QuotaStore(own, { clock, failMode: 'open' })
    const id = newKey()
    await quota.consume(id, 10)
    await quota.consume(id, 10)
    await quota.refund(id)
    expect(await client.get(`quota:{${id}}:${dayName(1)}`)).toBe('1')
    expect(await client.get(`usage:{${id}}:${dayName(1)}`)).toBe('1')
    await quota.refund(id)
    await quota.refund(id)
    expect(await client.get(`quota:{${id}}:${dayName(1)}`)).toBe('0')
    expect(await client.get(`usage:{${id}}:${dayName(1)}`)).toBe('0')
    own.disconnect()
  })

  it("reads today's usage, a day's shadow counts, resets and forgets keys", async () => {
    now = at(3, '08:00:00')
    const quota = store()
    const [used, unused] = [newKey(), newKey()]
    for (let i = 0; i < 3; i += 1) await quota.consume(used, 10)
    expect(await quota.usage([used, unused])).toEqual(
      new Map([
        [used, 3],
        [unused, 0],
      ]),
    )
    expect(await quota.usage([])).toEqual(new Map())
    expect(await quota.shadowCounts([used, unused], dayName(3))).toEqual(
      new Map([
        [used, 3],
        [unused, undefined],
      ]),
    )
    expect(await quota.resetToday(used)).toBe(3)
    expect(await client.exists(`quota:{${used}}:${dayName(3)}`)).toBe(0)
    expect(await quota.resetToday(used)).toBe(0)
    expect(await quota.usage([used])).toEqual(new Map([[used, 0]]))
  })

  it("forgets today's and the two previous days' counts of the keys named, and nothing else", async () => {
    now = at(4, '08:00:00')
    const [gone, kept] = [newKey(), newKey()]
    for (const id of [gone, kept]) {
      for (const back of [0, 1, 2, 3]) {
        await client.set(`quota:{${id}}:${dayName(4 - back)}`, '1')
        await client.set(`usage:{${id}}:${dayName(4 - back)}`, '1')
      }
    }
    await store().forget([gone])
    const left = async (id: string) =>
      (await client.keys(`*{${id}}*`)).sort((a, b) => a.localeCompare(b))
    expect(await left(gone)).toEqual([
      `quota:{${gone}}:${dayName(1)}`,
      `usage:{${gone}}:${dayName(1)}`,
    ])
    expect(await left(kept)).toHaveLength(8)
  })
})

describe('quota store, Redis down', () => {
  it('fails open: allows and counts in memory, reports the error, and refunds in memory', async () => {
    now = at(1, '12:00:00')
    const [id, other] = [newKey(), newKey()]
    failures.length = 0
    const quota = store()
    await outage(async () => {
      const decisions = []
      for (let i = 0; i < 3; i += 1) decisions.push(await quota.consume(id, 2))
      expect(decisions.map((d) => [d.allowed, d.used, d.remaining, d.degraded])).toEqual([
        [true, 1, 1, true],
        [true, 2, 0, true],
        [true, 3, 0, true],
      ])
      // Another key is counted beside it, not instead of it.
      expect((await quota.consume(other, 2)).used).toBe(1)
      expect(decisions[0]).toMatchObject({ limit: 2, resetSeconds: 43_200 })
      expect(await quota.usage([id, other])).toEqual(
        new Map([
          [id, 3],
          [other, 1],
        ]),
      )
      await quota.refund(id)
      expect((await quota.consume(id, 2)).used).toBe(3)
      for (let i = 0; i < 4; i += 1) await quota.refund(id)
      expect((await quota.consume(id, 2)).used).toBe(1)
      await expect(quota.shadowCounts([id], dayName(1))).rejects.toThrow()
      await expect(quota.resetToday(id)).rejects.toThrow()
      await quota.forget([id])
    })
    // consume 6, usage 1, refund 5, forget 1
    expect(failures).toHaveLength(13)
    expect(failures.every((error) => error instanceof Error)).toBe(true)
  })

  it('fails closed when told to, with the reason', async () => {
    const id = newKey()
    failures.length = 0
    await outage(async () => {
      const refused = store('closed').consume(id, 2)
      await expect(refused).rejects.toBeInstanceOf(QuotaUnavailableError)
      await expect(refused).rejects.toMatchObject({ name: 'QuotaUnavailableError' })
      await expect(refused).rejects.toThrow(failures[0]?.message)
    })
    expect(failures).toHaveLength(1)
  })

  it('works with no one to report to', async () => {
    const [id, refunded] = [newKey(), newKey()]
    const quota = store('open', false)
    // A refund of a key with no count in memory leaves none there (not NaN).
    await quota.refund(refunded)
    await outage(async () => {
      expect((await quota.consume(refunded, 2)).used).toBe(1)
      expect(await quota.consume(id, 2)).toMatchObject({ allowed: true, degraded: true })
      await quota.refund(id)
      expect(await quota.usage([id])).toEqual(new Map([[id, 0]]))
      await quota.forget([id])
    })
  })

  it('drops the memory counts once Redis answers again, and bounds them through a long outage', async () => {
    now = at(1, '12:00:00')
    const id = newKey()
    const quota = store('open', false)
    await outage(async () => {
      await quota.consume(id, 10)
      await quota.consume(id, 10)
    })
    // Back on Redis: it alone counts (nothing was written there during the outage).
    expect((await quota.consume(id, 10)).used).toBe(1)
    await outage(async () => {
      expect((await quota.consume(id, 10)).used).toBe(1)
      for (let i = 1; i < 100_000; i += 1) await quota.consume(`many-${i}`, 10)
      // 100,000 keys counted in memory: the next new one starts the map again.
      await quota.consume('one-more', 10)
      expect(await quota.usage([id, 'many-1', 'one-more'])).toEqual(
        new Map([
          [id, 0],
          ['many-1', 0],
          ['one-more', 1],
        ]),
      )
    })
  }, 120_000)
})
