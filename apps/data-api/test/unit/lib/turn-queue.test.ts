import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TurnQueue } from '../../../src/lib/turn-queue.js'

/*
 * TurnQueue: jobs in order, one per turn of the event loop, so that sockets are polled between
 * two of them. The socket is a real Unix-domain stream: the kernel puts what one end writes in
 * the other's receive queue before write() returns, so it is readable at the next poll (a TCP
 * loopback packet may wait for a softirq on a busy machine).
 */

const dir = mkdtempSync(join(tmpdir(), 'turn-queue-'))
let server: Server
let client: Socket
let accepted: Socket

beforeAll(async () => {
  server = createServer()
  await new Promise<void>((resolve) => server.listen(join(dir, 'socket'), resolve))
  client = connect(join(dir, 'socket'))
  const [[socket]] = await Promise.all([once(server, 'connection'), once(client, 'connect')])
  accepted = socket as Socket
})
afterAll(async () => {
  client.destroy()
  accepted.destroy()
  await new Promise<void>((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  )
  rmSync(dir, { recursive: true })
})

describe('TurnQueue', () => {
  it('runs jobs in the order they were queued, and settles each with its outcome', async () => {
    const queue = new TurnQueue()
    const ran: string[] = []
    const results = await Promise.allSettled([
      queue.run(() => ran.push('a') && 'A'),
      queue.run(() => {
        ran.push('b')
        throw new Error('b failed')
      }),
      queue.run(() => ran.push('c') && 'C'),
    ])
    expect(ran).toEqual(['a', 'b', 'c'])
    expect(results).toEqual([
      { status: 'fulfilled', value: 'A' },
      { status: 'rejected', reason: new Error('b failed') },
      { status: 'fulfilled', value: 'C' },
    ])
    expect(queue.size).toBe(0)
  })

  it('runs no job in the turn that queued it', async () => {
    const queue = new TurnQueue()
    let ran = false
    const done = queue.run(() => {
      ran = true
    })
    await Promise.resolve()
    expect(ran).toBe(false)
    expect(queue.size).toBe(1)
    await done
    expect(ran).toBe(true)
  })

  it('lets the event loop read a socket between two jobs', async () => {
    const queue = new TurnQueue()
    const order: string[] = []
    accepted.once('data', () => order.push('socket read'))
    await Promise.all([
      // The bytes are in the other end's receive queue once write() returns: read at the next poll.
      queue.run(() => {
        order.push('job 1')
        client.write('ping')
      }),
      queue.run(() => order.push('job 2')),
      queue.run(() => order.push('job 3')),
    ])
    expect(order).toEqual(['job 1', 'socket read', 'job 2', 'job 3'])
  })

  it('runs a job queued by a running job after the jobs already waiting', async () => {
    const queue = new TurnQueue()
    const ran: string[] = []
    let nested: Promise<unknown> = Promise.resolve()
    await Promise.all([
      queue.run(() => {
        ran.push('first')
        nested = queue.run(() => ran.push('queued by first'))
      }),
      queue.run(() => ran.push('second')),
    ])
    await nested
    expect(ran).toEqual(['first', 'second', 'queued by first'])
  })
})
