import { connect, createServer, type Socket } from 'node:net'

export interface TcpRelay {
  port: number
  /** Resolves when the held connection has arrived (it waits, its bytes unread). */
  held: Promise<void>
  /** Lets the held connection through to the target. */
  release: () => void
  /** Cuts every connection and stops listening. */
  close: () => Promise<void>
}

/**
 * A TCP relay on a free port to `target`, holding its `hold`-th connection (from 1) until
 * `release()`: a way to make a client wait at one precise point of a conversation with a real
 * server (here, between two connections of the same call).
 */
export async function startTcpRelay(
  target: { host: string; port: number },
  hold: number,
): Promise<TcpRelay> {
  const sockets = new Set<Socket>()
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let arrived = () => {}
  const held = new Promise<void>((resolve) => {
    arrived = resolve
  })
  let count = 0
  const server = createServer((client) => {
    count += 1
    sockets.add(client)
    const through = () => {
      const upstream = connect(target.port, target.host)
      sockets.add(upstream)
      // A side that fails ends the other: the client then sees a closed connection.
      client.on('error', () => upstream.destroy())
      upstream.on('error', () => client.destroy())
      client.pipe(upstream).pipe(client)
    }
    if (count !== hold) return through()
    arrived()
    void released.then(through)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    held,
    release,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      )
    },
  }
}
