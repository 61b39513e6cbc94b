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
  close: () => void,
): ChannelSubscriber {
  return {
    get listening() {
      return state.listening
    },
    stop: async () => {
      state.stopped = true
      state.listening = false
      close()
    },
  }
}

function singleSubscriber(
  client: Redis,
  channel: string,
  handlers: SubscriberHandlers,
): ChannelSubscriber {
  const state = { listening: false, stopped: false }
  // The same settings as the client, but the channel is subscribed anew on every `ready` (in
  // `watch`), so a subscription made while Redis was down is made once it is back. ioredis's own
  // resubscribing would send it twice, and nothing would catch its refusal (a process crash).
  const connection = client.duplicate({ autoResubscribe: false })
  watch(connection, channel, handlers, state)
  connection.connect().catch(() => {
    // Down at start: the connection retries by itself and subscribes when ready.
  })
  return subscriberOf(state, () => connection.disconnect())
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

  /**
   * The nodes the cluster client knows, else the seeds that name a host and a port (one given as
   * text or a bare port waits for the cluster client: guessing would mean localhost:6379).
   */
  function candidates(): { host: string; port: number }[] {
    const known = cluster.nodes('all').map((node) => node.options)
    const list = (known.length > 0 ? known : seeds).filter((n) => n.host && n.port)
    return list as { host: string; port: number }[]
  }

  function connectNext() {
    const list = candidates()
    const node = list[turn % Math.max(list.length, 1)]
    turn += 1
    if (!node) {
      // Nothing to try yet: ask again once the cluster client may have connected.
      timer = setTimeout(connectNext, 500)
      return
    }
    // The nodes' own settings (credentials, TLS, timeouts). Channels never carry a key prefix.
    const current = new Redis({
      ...cluster.options.redisOptions,
      host: node.host,
      port: node.port,
      // Connects at once (the kit's node settings say lazy: the cluster client connects those).
      lazyConnect: false,
      // One attempt per node: when it ends, the next node is tried.
      // Stryker disable next-line ArrowFunction: undefined stops reconnecting just as null does
      retryStrategy: () => null,
    })
    connection = current
    watch(current, channel, handlers, state)
    current.once('end', () => {
      if (!state.stopped) timer = setTimeout(connectNext, 200)
    })
  }

  connectNext()
  return subscriberOf(state, () => {
    clearTimeout(timer)
    connection?.disconnect()
  })
}
