import { describe, expect, it } from 'vitest'
import {
  createFeaturePool,
  FeatureTimeoutError,
  PoolOverloadedError,
} from '../../../src/features/pool.js'

/* The pool's refusals that need no busy thread (pool.test.ts times real work against budgets). */

describe('the feature pool refuses', () => {
  it('a call beyond its threads and queue at once, saying how busy it is', async () => {
    const pool = createFeaturePool({ threads: 1, maxQueue: 0, timeoutMs: 60_000 })
    try {
      const first = pool.run('stats', 'Hello world.', undefined)
      const refused = pool.run('stats', 'Hello world.', undefined)
      await expect(refused).rejects.toBeInstanceOf(PoolOverloadedError)
      await expect(refused).rejects.toThrow(
        'All 1 feature threads are busy and 0 calls are waiting.',
      )
      expect((await first).words).toBe(2)
      // The refused call took no place.
      expect((await pool.run('stats', 'Hello again.', undefined)).words).toBe(2)
    } finally {
      await pool.close()
    }
  }, 60_000)

  it('as many calls as come beyond its threads and queue, and takes a full load again after', async () => {
    const pool = createFeaturePool({ threads: 1, maxQueue: 2, timeoutMs: 60_000 })
    try {
      for (let round = 0; round < 3; round++) {
        const taken = [1, 2, 3].map((n) => pool.run('stats', 'One two. '.repeat(n), undefined))
        const refused = Array.from({ length: 10 }, () => pool.run('stats', 'x', undefined))
        for (const call of refused) await expect(call).rejects.toBeInstanceOf(PoolOverloadedError)
        expect((await Promise.all(taken)).map((result) => result.words)).toEqual([2, 4, 6])
      }
    } finally {
      await pool.close()
    }
  }, 60_000)

  it('with errors named for the logs', () => {
    expect(new PoolOverloadedError('x').name).toBe('PoolOverloadedError')
    expect(new FeatureTimeoutError('x').name).toBe('FeatureTimeoutError')
  })
})
