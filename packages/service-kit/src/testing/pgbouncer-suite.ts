// The PgBouncer suite both services run (vitest-bound; see hooks.ts): three replicas started at
// once on an empty database behind PgBouncer, migrating through it or through
// DATABASE_DIRECT_URL; each service says what to start and what the replicas must serve.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BaseConfig } from '../config.js'
import { usePgBouncer } from './hooks.js'
import { restartUnderLoad } from './outage.js'
import type { PgBouncer } from './pgbouncer.js'
import { type Replicas, type StartReplicasOptions, startReplicas } from './replicas.js'

/** A check of the three replicas, with the test's name. */
export type ReplicasCheck<C> = [title: string, check: (replicas: Replicas<C>) => Promise<void>]

export interface PgBouncerSuiteOptions<C extends BaseConfig, O>
  extends Omit<StartReplicasOptions<C, O>, 'count' | 'label' | 'env'> {
  /** The service's name, as the describe blocks and the test database show it. */
  service: string
  /** The replicas' own configuration (the database URLs are the suite's). */
  env?: Record<string, string>
  /** Proves the empty database was prepared (migrated, seeded) exactly once. */
  preparedOnce: ReplicasCheck<C>
  /** Proves each replica serves its main paths through PgBouncer. */
  serves: ReplicasCheck<C>
  /** A request that reaches Postgres every time, each on the next replica; its status. */
  throughPostgres: (replicas: Replicas<C>) => Promise<() => Promise<number>>
}

function describeThree<C>(
  title: string,
  start: () => Promise<Replicas<C>>,
  checks: ReplicasCheck<C>[],
  more: (replicas: () => Replicas<C>) => void = () => {},
) {
  describe(title, () => {
    let replicas: Replicas<C> | undefined
    const started = () => replicas as Replicas<C>
    beforeAll(async () => {
      replicas = await start()
    }, 120_000)
    afterAll(async () => {
      await replicas?.close()
    })
    for (const [name, check] of checks) it(name, () => check(started()))
    more(started)
  })
}

/** Three replicas started at once on an empty database, their pools going through PgBouncer. */
function startThree<C extends BaseConfig, O>(
  opts: PgBouncerSuiteOptions<C, O>,
  bouncer: PgBouncer,
  direct: boolean,
): Promise<Replicas<C>> {
  const { service, env, preparedOnce, serves, throughPostgres, ...replicas } = opts
  return startReplicas<C, O>({
    ...replicas,
    count: 3,
    label: `${service.replaceAll('-', '_')}_bouncer_${direct ? 'direct' : 'pooled'}`,
    env: (db) => ({
      DATABASE_URL: bouncer.url(db.name),
      ...(direct ? { DATABASE_DIRECT_URL: db.url } : {}),
      ...env,
    }),
  })
}

export function describeReplicasBehindPgBouncer<C extends BaseConfig, O = object>(
  opts: PgBouncerSuiteOptions<C, O>,
): void {
  const bouncer = usePgBouncer()
  const checks = [opts.preparedOnce, opts.serves]
  const name = `three ${opts.service} replicas behind PgBouncer`

  describeThree(
    `${name}, migrating through it`,
    () => startThree(opts, bouncer(), false),
    checks,
    (replicas) => {
      it('answer 200 again within 5 s of PgBouncer restarting, without a restart', async () => {
        const request = await opts.throughPostgres(replicas())
        let lostConnections = 0
        for (const { instance } of replicas().started) {
          instance.app.pg.on('error', () => lostConnections++)
        }
        expect(await request()).toBe(200)

        const recovery = await restartUnderLoad(() => bouncer().restart(), request)

        // The restart really cut the replicas' pooled connections.
        expect(lostConnections).toBeGreaterThan(0)
        // Requests during the outage fail as server errors, never as a client's fault (a valid
        // key refused as unknown, a page not found).
        expect(recovery.during.filter((status) => status !== 200 && status < 500)).toEqual([])
        expect(recovery.recoveredInMs).toBeDefined()
        expect(recovery.recoveredInMs).toBeLessThan(5_000)
      })
    },
  )
  describeThree(
    `${name}, migrating through DATABASE_DIRECT_URL`,
    () => startThree(opts, bouncer(), true),
    checks,
  )
}

/** Expects every replica started (none failed). */
export function expectThreeStarted<C>(replicas: Replicas<C>): void {
  expect(replicas.failures).toEqual([])
  expect(replicas.started).toHaveLength(3)
}
