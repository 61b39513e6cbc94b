import { type Cluster, Redis } from 'ioredis'
import { isCluster, type RedisClient } from './client.js'

export interface SubscriberHandlers {
  message: (message: string) => void
  /** Subscribed on a live connection: from now on every message published is received. */
  listening: () => void
  /** The connection dropped: messages published from now on may be missed. */
  deaf: () => void
}

export interface ChannelSubscriber {
  readonly listening: boolean
  stop: () => Promise<void>
}

/**
 * Listens to one pub/sub channel and says exactly when it is listening, so a cache fed by its
 * messages knows when it can be trusted. Never throws at start: with Redis down it stays deaf and
 * keeps trying.
 *
 * On a Redis Cluster, PUBLISH reaches every node, so one connection to any node hears everything.
 * ioredis's own cluster subscriber moves to another node silently when its node fails, which would
 * hide the gap; this keeps one plain connection to a node at a time and, when it ends, reports it
 * and moves on to the next node the cluster knows.
 */
export function subscribe(
  client: RedisClient,
  channel: string,
  handlers: SubscriberHandlers,
): ChannelSubscriber {
  return isCluster(client)
    ? clusterSubscriber(client, channel, handlers)
    : singleSubscriber(client, channel, handlers)
}

function watch(
  connection: Redis,
  channel: string,
  handlers: SubscriberHandlers,
  state: { listening: boolean; stopped: boolean },
) {
  connection.on('message', (_channel: string, message: string) => handlers.message(message))
  connection.on('ready', () => {
    connection
      .subscribe(channel)
      .then(() => {
        if (state.stopped) return
        state.listening = true
        handlers.listening()
      })
      // Could not subscribe on this connection: drop it, so it is tried again (or the next node).
      .catch(() => connection.disconnect(true))
  })
  connection.on('close', () => {
    if (!state.listening) return
    state.listening = false
    handlers.deaf()
  })
  // Connection errors are followed by 'close' (above); the client logs Redis outages.
  connection.on('error', () => {})
}

/** The caller's handle: whether the channel is listened to, and how to stop for good. */
function subscriberOf(
  state: { listening: boolean; stopped: boolean },
  close: () => Promise<unknown>,
): ChannelSubscriber {
  return {
    get listening() {
      return state.listening
    },
    stop: async () => {
      state.stopped = true
      state.listening = false
      await close()
    },
  }
}

function singleSubscriber(
  client: Redis,
  channel: string,
  handlers: SubscriberHandlers,
): ChannelSubscriber {
  const state = { listening: false, stopped: false }
  // The same settings as the client, but channels are subscribed anew on every `ready` (below),
  // so a subscription made while Redis was down is made once it is back.
  const connection = client.duplicate({ autoResubscribe: false, enableOfflineQueue: true })
  watch(connection, channel, handlers, state)
  connection.connect().catch(() => {
    // Down at start: the connection retries by itself and subscribes when ready.
  })
  return subscriberOf(state, () => connection.quit().catch(() => connection.disconnect()))
}

function clusterSubscriber(
  cluster: Cluster,
  channel: string,
  handlers: SubscriberHandlers,
): ChannelSubscriber {
  const state = { listening: false, stopped: false }
  // The seed nodes, for when the cluster client has not connected yet (a runtime property).
  const seeds = (cluster as unknown as { startupNodes: { host?: string; port?: number }[] })
    .startupNodes
  let turn = 0
  let connection: Redis | undefined
  let timer: NodeJS.Timeout | undefined

  function candidates(): { host: string; port: number }[] {
    const known = cluster.nodes('all').map((node) => node.options)
    const list = (known.length > 0 ? known : seeds).filter((n) => n.host && n.port)
    return list as { host: string; port: number }[]
  }

  function connectNext() {
    if (state.stopped) return
    const list = candidates()
    const node = list[turn % Math.max(list.length, 1)]
    turn += 1
    if (!node) {
      timer = setTimeout(connectNext, 500)
      return
    }
    const options = cluster.options.redisOptions ?? {}
    const current = new Redis({
      ...options,
      host: node.host,
      port: node.port,
      keyPrefix: '',
      lazyConnect: true,
      enableOfflineQueue: true,
      autoResubscribe: false,
      // One attempt per node: when it ends, the next node is tried.
      retryStrategy: () => null,
    })
    connection = current
    watch(current, channel, handlers, state)
    current.once('end', () => {
      if (connection === current && !state.stopped) timer = setTimeout(connectNext, 200)
    })
    current.connect().catch(() => {
      // 'end' follows and moves on to the next node.
    })
  }

  connectNext()
  return subscriberOf(state, async () => {
    clearTimeout(timer)
    await connection?.quit().catch(() => connection?.disconnect())
  })
}
