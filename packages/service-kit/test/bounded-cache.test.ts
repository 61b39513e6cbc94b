import { describe, expect, it } from 'vitest'
import { boundedCache } from '../src/bounded-cache.js'

describe('boundedCache', () => {
  it('keeps at most its number of entries, dropping the least recently used', () => {
    const cache = boundedCache<string, number>(3)
    cache.set('a', 1)
    cache.set('b', 2)
    cache.set('c', 3)
    expect(cache.get('a')).toBe(1) // a is now the most recently used
    cache.set('d', 4)
    expect(cache.size).toBe(3)
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd'])
    expect(cache.has('b')).toBe(false)
  })

  it('passes its options on (a time to live, a dispose callback)', async () => {
    const disposed: string[] = []
    const cache = boundedCache<string, number>(2, {
      ttl: 20,
      dispose: (_value, key) => disposed.push(key),
    })
    cache.set('a', 1)
    cache.set('b', 2)
    cache.set('c', 3)
    expect(disposed).toEqual(['a'])
    await new Promise((resolve) => setTimeout(resolve, 40))
    expect(cache.get('b')).toBeUndefined()
  })

  it('takes no memory up front for its bound', () => {
    const heap = () => process.memoryUsage().heapUsed
    const before = heap()
    // lru-cache's own `max: 100_000, ttl` allocates about 4 MB each: these 20 would take 80 MB.
    const caches = Array.from({ length: 20 }, () =>
      boundedCache<string, number>(100_000, { ttl: 1 }),
    )
    expect(heap() - before).toBeLessThan(8 * 1024 * 1024)
    expect(caches).toHaveLength(20)
  })
})
