import { describe, expect, it } from 'vitest'
import { QuoteStore } from '../../src/lib/quote-store.js'
import { QuoteOfTheDay } from '../../src/lib/today.js'
import { useSmallCorpus } from '../support/small-corpus.js'

const c = useSmallCorpus('today')
const SEEDED = [1, 2, 3, 5, 6, 9]

async function replica(): Promise<QuoteOfTheDay> {
  const store = new QuoteStore(c.pool, { cacheMax: 100, refreshMs: 3_600_000 })
  await store.load()
  return new QuoteOfTheDay(c.pool, store)
}

const stored = async (day: string) =>
  (await c.pool.query('SELECT num FROM quote_of_the_day WHERE day = $1', [day])).rows[0]?.num

describe('QuoteOfTheDay', () => {
  it('draws a quote once per day, stored for every replica', async () => {
    const [a, b] = [await replica(), await replica()]
    const num = await a.num('2030-01-01')
    expect(SEEDED).toContain(num)
    expect(await stored('2030-01-01')).toBe(num)
    for (let i = 0; i < 5; i += 1) expect(await b.num('2030-01-01')).toBe(num)
  })

  it('remembers its day until told to forget, then asks Postgres again', async () => {
    const today = await replica()
    const num = await today.num('2030-02-01')
    const other = SEEDED.find((n) => n !== num)
    await c.pool.query('UPDATE quote_of_the_day SET num = $1 WHERE day = $2', [other, '2030-02-01'])
    expect(await today.num('2030-02-01')).toBe(num)
    today.forget()
    expect(await today.num('2030-02-01')).toBe(other)
  })

  it('takes another day’s quote from Postgres, not from memory', async () => {
    const today = await replica()
    await today.num('2030-03-01')
    // Another replica drew the next day first.
    await c.pool.query('INSERT INTO quote_of_the_day (day, num) VALUES ($1, 9)', ['2030-03-02'])
    expect(await today.num('2030-03-02')).toBe(9)
    await c.pool.query('UPDATE quote_of_the_day SET num = 1 WHERE day = $1', ['2030-03-02'])
    expect(await today.num('2030-03-02')).toBe(9)
  })

  it('has no quote of the day without quotes', async () => {
    const empty = new QuoteStore(c.pool, { cacheMax: 100, refreshMs: 3_600_000 })
    const today = new QuoteOfTheDay(c.pool, empty)
    expect(await today.num('2030-04-01')).toBeUndefined()
    expect(await stored('2030-04-01')).toBeUndefined()
  })
})
