import { isCluster, type RedisClient } from './client.js'

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
    const ranges = await first.cluster('SLOTS')
    const owners = new Set(ranges.map(([, , owner]) => `${owner?.[0]}:${owner?.[1]}`))
    const known = new Map(
      masters.map((node) => [`${node.options.host}:${node.options.port}`, node]),
    )
    const results = await Promise.allSettled(
      [...owners].map(async (address) => {
        const node = known.get(address)
        if (!node) throw new Error('not connected')
        await node.ping()
      }),
    )
    const failed = [...owners].filter((_, i) => results[i]?.status === 'rejected')
    if (failed.length > 0) throw new Error(`masters not answering: ${failed.join(', ')}`)
    const info = String(await first.cluster('INFO'))
    const served = Number(/cluster_slots_ok:(\d+)/.exec(info)?.[1] ?? 0)
    if (!info.includes('cluster_state:ok') || served < 16_384) {
      throw new Error(`the cluster serves ${served} of 16384 slots`)
    }
  }
}
