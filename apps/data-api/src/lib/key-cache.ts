import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'
import { hashApiKey } from './api-key.js'
import type { ApiKeys, KeyIdentity } from './api-keys.js'

export interface KeyCacheOptions {
  ttlMs: number
  /** Pub/sub channel shared by every instance (already prefixed). */
  channel: string
  onError?: (error: Error) => void
}

// Unknown keys are remembered briefly, so a client retrying a bad key does not cost a query
// each time; creating a key clears its entry everywhere.
const NEGATIVE_TTL_MS = 5_000

interface Entry {
  identity: KeyIdentity | false
  hashHex: string
}

/**
 * Key look-ups without a Postgres query per request: identities are kept in memory for `ttlMs`,
 * and every instance evicts at once when a key is revoked or created or its owner's plan changes
 * (Redis pub/sub). The cache is only trusted while the subscription is up: when it drops,
 * look-ups go to Postgres until it is back (messages may have been missed), so a revoked key is
 * refused everywhere immediately even during a Redis outage.
 *
 * Entries are found by the key as sent, so a cached key costs neither its checksum nor its
 * SHA-256 again (the process holds keys in memory while it serves their requests anyway; they
 * are never written anywhere). Invalidations name keys by their hash, mapped back here.
 */
export class KeyCache {
  private readonly cache: LRUCache<string, Entry>
  private readonly keyOfHash = new Map<string, string>()
  private subscribed = false

  constructor(
    private readonly keys: ApiKeys,
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly opts: KeyCacheOptions,
  ) {
    this.cache = new LRUCache({
      max: 50_000,
      ttl: Math.max(opts.ttlMs, 1),
      dispose: (entry) => {
        this.keyOfHash.delete(entry.hashHex)
      },
    })
  }

  async start(): Promise<void> {
    this.subscriber.on('message', (_channel: string, message: string) => this.onMessage(message))
    this.subscriber.on('error', (error: Error) => this.opts.onError?.(error))
    if (this.subscriber.status === 'wait') await this.subscriber.connect()
    await this.subscriber.subscribe(this.opts.channel)
    this.subscribed = true
    this.subscriber.on('close', () => this.distrust())
    this.subscriber.on('ready', () => {
      // ioredis re-subscribes by itself after a reconnect; what was published meanwhile is lost.
      this.cache.clear()
      this.subscribed = true
    })
  }

  private distrust(): void {
    this.subscribed = false
    this.cache.clear()
  }

  private onMessage(message: string): void {
    const [kind, id] = message.split(':', 2)
    if (kind === 'key' && id) {
      const key = this.keyOfHash.get(id)
      if (key !== undefined) this.cache.delete(key)
    } else if (kind === 'user' && id) {
      for (const [key, entry] of this.cache.entries()) {
        if (entry.identity && entry.identity.userId === id) this.cache.delete(key)
      }
    }
  }

  /**
   * The cached answer for a key as sent: its identity, `false` when it is known not to exist,
   * or undefined when this instance does not know (then call load()).
   */
  peek(key: string): KeyIdentity | false | undefined {
    if (!this.subscribed || this.opts.ttlMs === 0) return undefined
    return this.cache.get(key)?.identity
  }

  /** Looks a well-formed key up in Postgres (by its SHA-256) and remembers the answer. */
  async load(key: string): Promise<KeyIdentity | undefined> {
    const hash = hashApiKey(key)
    const identity = await this.keys.identify(hash)
    if (this.subscribed && this.opts.ttlMs > 0) {
      const hashHex = hash.toString('hex')
      const ttl = identity ? this.opts.ttlMs : Math.min(NEGATIVE_TTL_MS, this.opts.ttlMs)
      this.cache.set(key, { identity: identity ?? false, hashHex }, { ttl })
      this.keyOfHash.set(hashHex, key)
    }
    return identity
  }

  /** A key was revoked or created: forget it here and on every other instance. */
  async evictKey(hash: Buffer): Promise<void> {
    const id = hash.toString('hex')
    this.onMessage(`key:${id}`)
    await this.publish(`key:${id}`)
  }

  /** A user's plan changed: forget their keys here and everywhere. */
  async evictUser(userId: string): Promise<void> {
    this.onMessage(`user:${userId}`)
    await this.publish(`user:${userId}`)
  }

  private async publish(message: string): Promise<void> {
    try {
      await this.publisher.publish(this.opts.channel, message)
    } catch (error) {
      // Other instances' subscriptions are down too, so they are not trusting their caches.
      this.opts.onError?.(error as Error)
    }
  }

  async stop(): Promise<void> {
    this.subscribed = false
    await this.subscriber.quit().catch(() => this.subscriber.disconnect())
  }
}
