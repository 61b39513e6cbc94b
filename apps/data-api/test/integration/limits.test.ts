import { connect } from 'node:net'
import { PLAN_LIMITS } from '@repo/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey } from '../../src/lib/api-key.js'
import { bodyAllowance } from '../../src/lib/json-body.js'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

// Limits applied before any work: body sizes judged before the body is read, and unknown keys
// limited per client address.

let t: TestApp
let port: number
let freeKey: string

beforeAll(async () => {
  t = await createTestApp('limits', { env: { API_UNAUTHORIZED_PER_ADDRESS: '5' } })
  const url = new URL(await t.app.listen({ host: '127.0.0.1', port: 0 }))
  port = Number(url.port)
  const client = new DashboardClient(t.app)
  await client.signUp(uniqueEmail('limits'))
  freeKey = await client.createKey()
})
afterAll(async () => {
  await t?.close()
})

/**
 * Sends `head` on a raw connection, then `body` pieces one by one while the connection is open;
 * resolves with the response's status line and how many body bytes were sent before it came.
 */
function rawRequest(head: string, pieces: string[], pauseMs = 20) {
  return new Promise<{ status: string; sentBeforeAnswer: number; closed: boolean }>(
    (resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port })
      let sent = 0
      let answer = ''
      let status = ''
      let stopped = false
      socket.on('error', (error) => {
        if (!status) reject(error)
      })
      socket.on('data', (chunk) => {
        answer += chunk.toString()
        if (!status && answer.includes('\r\n')) {
          status = answer.split('\r\n', 1)[0] as string
          stopped = true
        }
      })
      socket.on('close', () => resolve({ status, sentBeforeAnswer: sent, closed: true }))
      socket.write(head)
      const next = (i: number) => {
        // Never ends the request: an answer can only come from the server not waiting for more.
        if (stopped || i >= pieces.length || socket.destroyed) return
        socket.write(pieces[i] as string, () => {
          sent += (pieces[i] as string).length
          setTimeout(() => next(i + 1), pauseMs)
        })
      }
      next(0)
    },
  )
}

const headers = (key: string, extra: string) =>
  `POST /api/v1/data HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
  `Content-Type: application/json\r\n${extra}\r\n`

describe('body size, judged before the body is read', () => {
  const allowance = bodyAllowance(PLAN_LIMITS.FREE.maxDataBytes)

  it('answers 413 from a Content-Length over the plan allowance without reading the body', async () => {
    // No body at all is sent: the answer comes from the declared length alone.
    const result = await rawRequest(headers(freeKey, `Content-Length: ${8 * 1024 * 1024}\r\n`), [])
    expect(result.status).toBe('HTTP/1.1 413 Payload Too Large')
    expect(result.sentBeforeAnswer).toBe(0)
    expect(result.closed).toBe(true)
  })

  it('cuts a chunked body off as it passes the allowance', async () => {
    const chunk = 'x'.repeat(16 * 1024)
    const framed = `${chunk.length.toString(16)}\r\n${chunk}\r\n`
    const pieces = Array.from({ length: 40 }, () => framed) // 640 KB offered
    const result = await rawRequest(headers(freeKey, 'Transfer-Encoding: chunked\r\n'), pieces)
    expect(result.status).toBe('HTTP/1.1 413 Payload Too Large')
    expect(result.sentBeforeAnswer).toBeLessThan(allowance + 3 * framed.length)
    expect(result.closed).toBe(true)
  })

  it('reads a body within the allowance, then holds `data` to the plan limit exactly', async () => {
    const data = 'a'.repeat(PLAN_LIMITS.FREE.maxDataBytes + 1)
    const res = await callData(t.app, freeKey, { data, options: { feature: 'stats' } })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', max_data_bytes: 10_240 })
    const escaped = '"\n'.repeat(PLAN_LIMITS.FREE.maxDataBytes / 2) // 20 KB once escaped
    const ok = await callData(t.app, freeKey, { data: escaped, options: { feature: 'stats' } })
    expect(ok.statusCode).toBe(200)
  })

  it('refuses an empty or malformed JSON body with a 400', async () => {
    expect((await callData(t.app, freeKey, '')).statusCode).toBe(400)
    expect((await callData(t.app, freeKey, '{"data":')).json().code).toBe('INVALID_REQUEST')
    const poisoned = await callData(t.app, freeKey, '{"data":"x","__proto__":{"a":1}}')
    expect(poisoned.statusCode).toBe(400)
  })
})

describe('requests without a valid key, per client address', () => {
  it('answers 401 up to the limit, then 429 with Retry-After, without looking keys up', async () => {
    const address = '203.0.113.40'
    const statuses: number[] = []
    for (let i = 0; i < 7; i += 1) {
      const res = await t.app.inject({
        url: '/api/v1/data',
        remoteAddress: address,
        headers: { authorization: `Bearer ${generateApiKey().key}` },
      })
      statuses.push(res.statusCode)
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429])
    // Another address is not affected; a key this instance knows still works from this one.
    const other = await t.app.inject({ url: '/api/v1/data', remoteAddress: '203.0.113.41' })
    expect(other.statusCode).toBe(401)
    await callData(t.app, freeKey)
    const known = await t.app.inject({
      url: '/api/v1/data',
      remoteAddress: address,
      headers: { authorization: `Bearer ${freeKey}` },
    })
    expect(known.statusCode).toBe(200)
  })

  it('counts IPv6 clients per /64', async () => {
    const statuses: number[] = []
    for (let i = 1; i <= 6; i += 1) {
      const res = await t.app.inject({
        url: '/api/v1/data',
        remoteAddress: `2001:db8:aa:bb::${i}`,
      })
      statuses.push(res.statusCode)
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
  })

  it('looks a made-up key up in Postgres once, however often it is sent', async () => {
    const key = generateApiKey().key
    let lookups = 0
    const original = t.app.pg.query.bind(t.app.pg)
    t.app.pg.query = ((...args: Parameters<typeof original>) => {
      if (String(args[0]).includes('FROM api_keys k JOIN users')) lookups += 1
      return original(...args)
    }) as typeof original
    try {
      for (let i = 0; i < 4; i += 1) {
        const res = await t.app.inject({
          url: '/api/v1/data',
          remoteAddress: `198.51.100.${i + 1}`,
          headers: { authorization: `Bearer ${key}` },
        })
        expect(res.statusCode).toBe(401)
      }
    } finally {
      t.app.pg.query = original
    }
    expect(lookups).toBe(1)
  })
})
