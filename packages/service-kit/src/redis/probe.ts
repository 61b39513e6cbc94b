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
    if (masters.length === 0) throw new Error('no master is known')
    const results = await Promise.allSettled(masters.map((node) => node.ping()))
    const failed = results.flatMap((result, i) =>
      result.status === 'rejected'
        ? [`${masters[i]?.options.host}:${masters[i]?.options.port} (${result.reason?.message})`]
        : [],
    )
    if (failed.length > 0) throw new Error(`masters not answering: ${failed.join(', ')}`)
    const info = String(await masters[0]?.cluster('INFO'))
    const served = Number(/cluster_slots_ok:(\d+)/.exec(info)?.[1] ?? 0)
    if (!info.includes('cluster_state:ok') || served < 16_384) {
      throw new Error(`the cluster serves ${served} of 16384 slots`)
    }
  }
}
