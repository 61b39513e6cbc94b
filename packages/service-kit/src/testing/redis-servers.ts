import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'
import { freePort, type Spawned, spawnServer, waitFor } from './processes.js'

const run = promisify(execFile)

export interface RedisClusterNode {
  port: number
  /** `127.0.0.1:<port>` */
  address: string
  dir: string
}

export interface TestRedisCluster {
  nodes: RedisClusterNode[]
  /** `REDIS_CLUSTER_NODES` for the services: every node, comma-separated. */
  seeds: string
  /** The node serving `key`'s hash slot as master right now. */
  masterOf: (key: string) => Promise<RedisClusterNode>
  /** Stops a node (SIGKILL: a crash, not a shutdown). */
  stopNode: (node: RedisClusterNode) => Promise<void>
  /** Starts a stopped node again with its data and cluster state; resolves when the cluster is ok. */
  startNode: (node: RedisClusterNode) => Promise<void>
  /** Resolves when every running node reports cluster_state:ok. */
  waitUntilOk: () => Promise<void>
  close: () => Promise<void>
}

export interface RedisClusterOptions {
  masters?: number
  /** Replicas per master (failover needs at least 1). */
  replicas?: number
  /** cluster-node-timeout: how long before a master that stopped answering fails over. */
  nodeTimeoutMs?: number
  /** Every node requires this password (requirepass, and masterauth between nodes). */
  password?: string
}

/** redis-cli's arguments that authenticate with `password` (none without one). */
const authArgs = (password?: string) => (password ? ['-a', password, '--no-auth-warning'] : [])

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args])
  return stdout
}

/**
 * A real Redis Cluster from the machine's `redis-server`, on free ports in a temporary folder:
 * `masters` masters (3 by default) with `replicas` replicas each, formed with
 * `redis-cli --cluster create`. Nodes can be stopped and started again to test failures.
 * `close()` kills every node and deletes the folder.
 */
export async function startRedisCluster(opts: RedisClusterOptions = {}): Promise<TestRedisCluster> {
  const masters = opts.masters ?? 3
  const replicas = opts.replicas ?? 0
  const auth = authArgs(opts.password)
  const root = await mkdtemp(join(tmpdir(), 'redis-cluster-'))
  const processes = new Map<number, Spawned>()
  const nodes: RedisClusterNode[] = []

  async function launch(node: RedisClusterNode) {
    const spawned = spawnServer('redis-server', [join(node.dir, 'redis.conf')], { cwd: node.dir })
    processes.set(node.port, spawned)
    await waitFor(
      `redis node ${node.address}`,
      async () => (await cli(node.port, ...auth, 'PING')) !== '',
    )
  }

  async function closeAll() {
    await Promise.all([...processes.values()].map((p) => p.stop(1_000)))
    processes.clear()
    await rm(root, { recursive: true, force: true })
  }

  try {
    for (let i = 0; i < masters * (1 + replicas); i += 1) {
      const port = await freePort(10_000)
      const dir = join(root, String(port))
      await run('mkdir', ['-p', dir])
      await writeFile(
        join(dir, 'redis.conf'),
        [
          `port ${port}`,
          'bind 127.0.0.1',
          'cluster-enabled yes',
          'cluster-config-file nodes.conf',
          `cluster-node-timeout ${opts.nodeTimeoutMs ?? 1_000}`,
          // Keys of the slots still served keep working while one master is down.
          'cluster-require-full-coverage no',
          'save ""',
          'appendonly no',
          `dir ${dir}`,
          'loglevel warning',
          ...(opts.password ? [`requirepass ${opts.password}`, `masterauth ${opts.password}`] : []),
        ].join('\n'),
      )
      const node = { port, address: `127.0.0.1:${port}`, dir }
      nodes.push(node)
      await launch(node)
    }
    await run('redis-cli', [
      ...auth,
      '--cluster',
      'create',
      ...nodes.map((n) => n.address),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ])
  } catch (error) {
    const logs = [...processes.values()].map((p) => p.output()).join('\n')
    await closeAll()
    throw new Error(`could not start a Redis Cluster: ${(error as Error).message}\n${logs}`)
  }

  const running = () => nodes.filter((n) => processes.has(n.port))
  const waitUntilOk = () =>
    waitFor(
      'cluster_state:ok on every running node',
      async () => {
        const infos = await Promise.all(
          running().map((n) => cli(n.port, ...auth, 'CLUSTER', 'INFO')),
        )
        return infos.every((info) => info.includes('cluster_state:ok'))
      },
      30_000,
      100,
    )
  await waitUntilOk()

  return {
    nodes,
    seeds: nodes.map((n) => n.address).join(','),
    waitUntilOk,
    masterOf: async (key) => {
      const node = running()[0]
      if (!node) throw new Error('no node is running')
      const client = new Redis({
        port: node.port,
        host: '127.0.0.1',
        password: opts.password,
        lazyConnect: true,
      })
      try {
        await client.connect()
        const slot = Number(await client.call('CLUSTER', 'KEYSLOT', key))
        const ranges = (await client.call('CLUSTER', 'SLOTS')) as [
          number,
          number,
          [string, number],
        ][]
        const range = ranges.find(([from, to]) => slot >= from && slot <= to)
        const port = range?.[2][1]
        const owner = nodes.find((n) => n.port === port)
        if (!owner) throw new Error(`no master serves slot ${slot}`)
        return owner
      } finally {
        client.disconnect()
      }
    },
    stopNode: async (node) => {
      const spawned = processes.get(node.port)
      if (!spawned) return
      spawned.child.kill('SIGKILL')
      await spawned.stop(0)
      processes.delete(node.port)
    },
    startNode: async (node) => {
      if (processes.has(node.port)) return
      await launch(node)
      await waitUntilOk()
    },
    close: closeAll,
  }
}

/**
 * Adds an ACL user to the Redis server on `port` (`adminPassword`: the default user's, if it has
 * one), e.g. `['+@all', '-@dangerous']` for a user denied INFO as hardened set-ups do.
 */
export async function addRedisUser(
  port: number,
  user: { name: string; password: string; rules: string[]; adminPassword?: string },
): Promise<void> {
  const auth = user.adminPassword ? ['-a', user.adminPassword, '--no-auth-warning'] : []
  const reply = await cli(
    port,
    ...auth,
    'ACL',
    'SETUSER',
    user.name,
    'on',
    `>${user.password}`,
    '~*',
    ...user.rules,
  )
  if (reply.trim() !== 'OK') throw new Error(`ACL SETUSER ${user.name}: ${reply}`)
}

export interface PrivateRedis {
  port: number
  url: string
  /** Starts it (again) on the same port; resolves when it answers PING. */
  start: () => Promise<void>
  /** Kills it (a crash). */
  stop: () => Promise<void>
  close: () => Promise<void>
}

/**
 * A Redis server of the test's own (machine's redis-server, a free port, nothing kept on disk),
 * for tests that stop and start Redis. Created stopped when `running` is false.
 */
export async function startPrivateRedis({
  running = true,
  password,
}: {
  running?: boolean
  password?: string
} = {}): Promise<PrivateRedis> {
  const port = await freePort()
  let spawned: Spawned | undefined
  const redis: PrivateRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    start: async () => {
      if (spawned) return
      spawned = spawnServer('redis-server', [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        ...(password ? ['--requirepass', password] : []),
      ])
      await waitFor(`redis on port ${port}`, async () => {
        const reply = await cli(port, ...authArgs(password), 'PING')
        return reply.includes('PONG')
      })
    },
    stop: async () => {
      spawned?.child.kill('SIGKILL')
      await spawned?.stop(0)
      spawned = undefined
    },
    close: async () => redis.stop(),
  }
  if (running) await redis.start()
  return redis
}
