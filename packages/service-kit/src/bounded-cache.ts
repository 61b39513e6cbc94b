import { LRUCache } from 'lru-cache'

export type BoundedCacheOptions<K extends {}, V extends {}> = Omit<
  LRUCache.Options<K, V, unknown>,
  'max' | 'maxSize' | 'sizeCalculation' | 'maxEntrySize'
>

/**
 * An LRU cache of at most `entries` entries (least recently used out first) that takes memory as
 * it fills. lru-cache's own `max` allocates room for every entry at construction: about 2.7 MB
 * for 100,000 entries, 4.2 MB with a `ttl`. data-api's five flood-bounded caches held about 16 MB
 * of empty slots from start-up, for bounds that only a flood ever reaches. Counting each entry as
 * size 1 against `maxSize` keeps the same bound without the up-front arrays.
 */
export function boundedCache<K extends {}, V extends {}>(
  entries: number,
  options: BoundedCacheOptions<K, V> = {},
): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...options, maxSize: entries, sizeCalculation: () => 1 })
}
