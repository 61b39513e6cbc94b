import { Cluster, type ClusterNode, Redis, type RedisOptions } from 'ioredis'
import { EMBEDDED_REDIS_URL, embeddedRedis } from '../embedded.js'

/** A connection to Redis: one server, or a Redis Cluster (REDIS_CLUSTER_NODES). */
export type RedisClient = Redis | Cluster

export interface RedisClientOptions {
  /** `redis://…` of a single server (REDIS_URL); also where credentials and TLS are read from. */
  url: string
  /** `host:port[,host:port…]` seed nodes (REDIS_CLUSTER_NODES): switches to cluster mode. */
  clusterNodes?: string
  keyPrefix?: string
  /** Milliseconds a command may take before it fails (so a stalled Redis cannot stall requests). */
  commandTimeout?: number
}

export function isCluster(client: RedisClient): client is Cluster {
  return (client as Cluster).isCluster === true
}

/** `host:port,host:port` (IPv6 hosts in brackets) → ioredis cluster nodes; throws on a bad entry. */
export function parseClusterNodes(spec: string): ClusterNode[] {
  return spec
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const match = /^(\[[^\]]+\]|[^:\s]+):(\d{1,5})$/.exec(entry)
      const port = Number(match?.[2])
      if (!match || port < 1 || port > 65_535) {
        throw new Error(`REDIS_CLUSTER_NODES: "${entry}" is not host:port`)
      }
      return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port }
    })
}

/** Credentials, TLS and database from a redis:// or rediss:// URL. */
function urlOptions(url: string): RedisOptions {
  const parsed = new URL(url)
  return {
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  }
}

function connectionOptions(opts: RedisClientOptions): RedisOptions {
  return {
    // Fail commands at once while disconnected instead of queueing them: callers decide whether
    // to fail open or closed, and requests never pile up behind a dead connection.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // A timer per command (patches/ioredis@6.0.0.patch clears it without slowing the command).
    commandTimeout: opts.commandTimeout ?? 1_000,
    connectTimeout: 2_000,
    lazyConnect: true,
    // Measured: auto-pipelining cost more (a tick's delay and batching work per command) than it
    // saved on these one-command-per-request paths.
    enableAutoPipelining: false,
    // Reconnect forever, backing off to one attempt per 2 s.
    retryStrategy: (times) => Math.min(times * 100, 2_000),
  }
}

/** A cluster client over `nodes`; the URL gives credentials and TLS shared by every node. */
export function createClusterClient(nodes: ClusterNode[], opts: RedisClientOptions): Cluster {
  // The cluster reconnects nodes itself and owns the offline queue setting.
  const {
    retryStrategy: _retry,
    enableOfflineQueue: _queue,
    ...perNode
  } = {
    ...connectionOptions(opts),
    ...urlOptions(opts.url),
  }
  return new Cluster(nodes, {
    keyPrefix: opts.keyPrefix ?? '',
    lazyConnect: true,
    enableOfflineQueue: false,
    enableAutoPipelining: false,
    scaleReads: 'master',
    // Slots move on failover: refresh the map often enough to follow without a restart.
    slotsRefreshInterval: 2_000,
    slotsRefreshTimeout: 1_000,
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    clusterRetryStrategy: (times) => Math.min(times * 100, 2_000),
    redisOptions: perNode,
  })
}

/** Creates the client (not connected: the redis plugin connects it). */
export function createRedisClient(opts: RedisClientOptions): RedisClient {
  if (opts.clusterNodes) return createClusterClient(parseClusterNodes(opts.clusterNodes), opts)
  if (opts.url === EMBEDDED_REDIS_URL) {
    // In-process Redis for a local run without one; instances share data and pub/sub.
    return embeddedRedis({ keyPrefix: opts.keyPrefix ?? '', lazyConnect: true })
  }
  return new Redis(opts.url, { ...connectionOptions(opts), keyPrefix: opts.keyPrefix ?? '' })
}

/** True when the server behind `client` (a single-server client) is a Redis Cluster node. */
export async function isClusterNode(client: Redis): Promise<boolean> {
  try {
    return /^cluster_enabled:1\b/m.test(await client.info('cluster'))
  } catch (error) {
    // INFO is a @dangerous command, which an ACL user is often denied; CLUSTER INFO is not, and a
    // server without cluster support refuses it (so does one denying it too: taken as plain).
    if (!(error as Error).message.startsWith('NOPERM')) throw error
    return client.cluster('INFO').then(
      () => true,
      () => false,
    )
  }
}
