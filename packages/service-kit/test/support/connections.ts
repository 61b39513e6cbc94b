import diagnostics from 'node:diagnostics_channel'
import { once } from 'node:events'
import { connect, createServer, type Socket } from 'node:net'

/**
 * What this process's own TCP connections to `port` do from now on, seen through Node's `net`
 * diagnostics channel (the sockets a Redis client opens, without reaching into the client).
 */
export function connectionsTo(port: number) {
  const connected: Socket[] = []
  let refused = 0
  const onSocket = (message: unknown) => {
    const { socket } = message as { socket: Socket }
    socket.once('connect', () => {
      if (socket.remotePort === port) connected.push(socket)
    })
    socket.once('error', (error: NodeJS.ErrnoException & { port?: number }) => {
      if (error.code === 'ECONNREFUSED' && error.port === port) refused += 1
    })
  }
  diagnostics.subscribe('net.client.socket', onSocket)
  return {
    /** The sockets that connected, in order. */
    connected: () => [...connected],
    /** How many attempts were refused. */
    refused: () => refused,
    stop: () => diagnostics.unsubscribe('net.client.socket', onSocket),
  }
}

/**
 * A TCP proxy to 127.0.0.1:`port` that, once a client has sent `command` through it, holds what
 * the server sends back until `release()`: a reply that stays on its way as long as a test needs.
 */
export async function replyHoldingProxy(port: number, command: string) {
  // How a command name is sent in RESP: a bulk string of its own.
  const name = `\r\n${command.toLowerCase()}\r\n`
  let holding = false
  const held: { to: Socket; data: Buffer | undefined }[] = []
  const sockets = new Set<Socket>()
  const server = createServer({ allowHalfOpen: true }, (client) => {
    const upstream = connect({ port, host: '127.0.0.1', allowHalfOpen: true })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      // A reset connection is the test's to notice through its client, not the proxy's.
      socket.on('error', () => socket.destroy())
    }
    client.on('data', (data) => {
      upstream.write(data)
      if (data.toString('latin1').toLowerCase().includes(name)) holding = true
    })
    client.on('end', () => upstream.end())
    upstream.on('data', (data) => (holding ? held.push({ to: client, data }) : client.write(data)))
    upstream.on('end', () => (holding ? held.push({ to: client, data: undefined }) : client.end()))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    port: (server.address() as { port: number }).port,
    /** True once `command` went through: from then on replies are held. */
    holding: () => holding,
    /** Delivers what was held (and the server's end of the connection), then passes all. */
    release: () => {
      holding = false
      for (const { to, data } of held.splice(0)) {
        if (data) to.write(data)
        else to.end()
      }
    },
    close: async () => {
      for (const socket of sockets) socket.destroy()
      server.close()
      await once(server, 'close')
    },
  }
}
