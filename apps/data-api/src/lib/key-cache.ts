import {
  boundedCache,
  type ChannelSubscriber,
  type RedisClient,
  subscribe,
} from '@repo/service-kit'
import type { LRUCache } from 'lru-cache'
import { hashApiKey } from './api-key.js'
import type { ApiKeys, KeyIdentity } from './api-keys.js'

/** The pub/sub channel of key invalidations (channels are not key-prefixed by the client). */
export const invalidationChannel = (redisKeyPrefix: string) =>
  `${redisKeyPrefix}api-keys:invalidate`

export interface KeyCacheOptions {
  ttlMs: number
  /** Pub/sub channel shared by every instance (already prefixed). */
  channel: string
  /** How long a key known not to exist is remembered (one Postgres look-up per key per period). */
  unknownTtlMs?: number
  onError?: (error: Error) => void
}

interface Entry {
  identity: KeyIdentity
  hashHex: string
}

/**
 * Key look-ups without a Postgres query per request.
 *
 * - Known keys are kept for `ttlMs`, and every instance evicts at once when a key is revoked or
 *   created or its owner's plan changes (Redis pub/sub). They are only trusted while the
 *   subscription is listening: when it drops, look-ups go to Postgres until it is back (messages
 *   may have been missed), so a revoked key is refused everywhere at once even during a Redis
 *   outage.
 * - Unknown keys (well-formed, with a valid checksum, but in no row: anyone can make those) are
 *   remembered for `unknownTtlMs` in a cache of their own, so a flood of made-up keys costs one
 *   query per key per period and can never push known keys out. Creating a key clears its entry
 *   everywhere. They are trusted during an outage too: a key nobody has created yet cannot have
 *   been created and missed.
 *
 * Entries are found by the key as sent, so a cached key costs neither its checksum nor its
 * SHA-256 again (the process holds keys in memory while it serves their requests anyway; they
 * are never written anywhere). Invalidations name keys by their hash, mapped back here.
 */
export class KeyCache {
  private readonly known: LRUCache<string, Entry>
  /** By SHA-256 (hex) of the key: created keys are announced by hash, never in clear. */
  private readonly unknown: LRUCache<string, true>
  private readonly keyOfHash = new Map<string, string>()
  private subscriber: ChannelSubscriber | undefined

  constructor(
    private readonly keys: ApiKeys,
    private readonly redis: RedisClient,
    private readonly opts: KeyCacheOptions,
  ) {
    this.known = boundedCache(50_000, {
      ttl: Math.max(opts.ttlMs, 1),
      dispose: (entry) => {
        this.keyOfHash.delete(entry.hashHex)
      },
    })
    this.unknown = boundedCache(100_000, { ttl: opts.unknownTtlMs ?? 60_000 })
  }

  /** Subscribes to invalidations (never throws: with Redis down the cache waits, untrusted). */
  start(): void {
    this.subscriber = subscribe(this.redis, this.opts.channel, {
      message: (message) => this.onMessage(message),
      // What was published while not listening is lost: start again from an empty cache.
      listening: () => this.known.clear(),
      deaf: () => this.known.clear(),
    })
  }

  private get trusted(): boolean {
    return this.subscriber?.listening === true && this.opts.ttlMs > 0
  }

  private onMessage(message: string): void {
    const [kind, id] = message.split(':', 2)
    if (kind === 'key' && id) {
      const key = this.keyOfHash.get(id)
      if (key !== undefined) this.known.delete(key)
    } else if (kind === 'created' && id) {
      this.unknown.delete(id)
    } else if (kind === 'user' && id) {
      for (const [key, entry] of this.known.entries()) {
        if (entry.identity.userId === id) this.known.delete(key)
      }
    }
  }

  /** The identity of a key as sent, when this instance knows it (no hashing: the hot path). */
  peek(key: string): KeyIdentity | undefined {
    if (!this.trusted) return undefined
    return this.known.get(key)?.identity
  }

  /**
   * Looks a well-formed key up in Postgres (by its SHA-256) and remembers the answer; a key
   * known not to exist answers undefined without a query.
   */
  async load(key: string): Promise<KeyIdentity | undefined> {
    const hash = hashApiKey(key)
    const hashHex = hash.toString('hex')
    if (this.unknown.has(hashHex)) return undefined
    const identity = await this.keys.identify(hash)
    if (!identity) {
      this.unknown.set(hashHex, true)
    } else if (this.trusted) {
      this.known.set(key, { identity, hashHex })
      this.keyOfHash.set(hashHex, key)
    }
    return identity
  }

  /** A key was revoked: forget it here and on every other instance. */
  async evictKey(hash: Buffer): Promise<void> {
    const message = `key:${hash.toString('hex')}`
    this.onMessage(message)
    await this.publish(message)
  }

  /** A key was created: forget that it was unknown, here and everywhere. */
  async created(hash: Buffer): Promise<void> {
    const message = `created:${hash.toString('hex')}`
    this.onMessage(message)
    await this.publish(message)
  }

  /** A user's plan changed: forget their keys here and everywhere. */
  async evictUser(userId: string): Promise<void> {
    const message = `user:${userId}`
    this.onMessage(message)
    await this.publish(message)
  }

  private async publish(message: string): Promise<void> {
    try {
      await this.redis.publish(this.opts.channel, message)
    } catch (error) {
      // Other instances' subscriptions are down too, so they are not trusting their caches.
      this.opts.onError?.(error as Error)
    }
  }

  async stop(): Promise<void> {
    await this.subscriber?.stop()
  }
}
