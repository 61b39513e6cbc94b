import { isCluster, type RedisClient } from './client.js'

/** A range of CLUSTER SLOTS: its first node is the master serving it (Redis always names one). */
type SlotRange = [from: number, to: number, master: [host: string, port: number]]

/**
 * Readiness of Redis as the service uses it. One server: PING. A cluster: the client must know
 * the slot map, every master it knows must answer, and the cluster must report all 16,384 slots
 * served (a master that died is dropped from the client's pool, so pinging the rest would say
 * "up" while the keys of its slots cannot be counted).
 */
export function redisProbe(client: RedisClient): () => Promise<void> {
  if (!isCluster(client)) {
    return async () => {
      await client.ping()
    }
  }
  return async () => {
    if (client.status !== 'ready') throw new Error(`the cluster client is ${client.status}`)
    const masters = client.nodes('master')
    const first = masters[0]
    if (!first) throw new Error('no master is known')
    // Who serves the slots, as the cluster says (the client drops a master it lost from its pool).
    const ranges = (await first.call('CLUSTER', 'SLOTS')) as SlotRange[]
    const owners = new Set(ranges.map(([, , [host, port]]) => `${host}:${port}`))
    const known = new Map(
      masters.map((node) => [`${node.options.host}:${node.options.port}`, node]),
    )
    const answers = await Promise.all(
      [...owners].map(async (address) => {
        const node = known.get(address)
        // A master the client has lost is not answering either.
        if (!node) return address
        return node.ping().then(
          () => undefined,
          () => address,
        )
      }),
    )
    const failed = answers.filter((address) => address !== undefined)
    if (failed.length > 0) throw new Error(`masters not answering: ${failed.join(', ')}`)
    const info = String(await first.cluster('INFO'))
    const served = Number(/cluster_slots_ok:(\d+)/.exec(info)?.[1] ?? 0)
    if (!info.includes('cluster_state:ok') || served < 16_384) {
      throw new Error(`the cluster serves ${served} of 16384 slots`)
    }
  }
}
