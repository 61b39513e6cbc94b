import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import clientAddressPlugin from '../src/plugins/client-address.js'

// request.clientAddress: request.ip, worked out once per request.

async function appTrusting(trustProxy: string | false) {
  const app = Fastify({ trustProxy })
  await app.register(clientAddressPlugin)
  app.get('/address', async (request) => {
    const first = request.clientAddress
    // What a second read of request.ip would work out now: the kept address does not change.
    request.raw.headers['x-forwarded-for'] = '198.51.100.99'
    return { first, again: request.clientAddress, ip: request.ip }
  })
  await app.ready()
  return app
}

describe('request.clientAddress', () => {
  it('is the address request.ip gives behind a trusted proxy, kept for the request', async () => {
    const app = await appTrusting('127.0.0.1')
    try {
      for (const client of ['203.0.113.7', '2001:db8::7']) {
        const res = await app.inject({
          url: '/address',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': `192.0.2.1, ${client}` },
        })
        expect(res.json()).toEqual({ first: client, again: client, ip: '198.51.100.99' })
      }
      // An untrusted peer's X-Forwarded-For is not believed.
      const untrusted = await app.inject({
        url: '/address',
        remoteAddress: '192.0.2.50',
        headers: { 'x-forwarded-for': '203.0.113.7' },
      })
      expect(untrusted.json()).toMatchObject({ first: '192.0.2.50', again: '192.0.2.50' })
    } finally {
      await app.close()
    }
  })

  it('is the peer`s address without a trusted proxy, and each request has its own', async () => {
    const app = await appTrusting(false)
    try {
      for (const peer of ['203.0.113.8', '::ffff:203.0.113.9']) {
        const res = await app.inject({ url: '/address', remoteAddress: peer })
        expect(res.json()).toEqual({ first: peer, again: peer, ip: peer })
      }
    } finally {
      await app.close()
    }
  })

  it('works in a context made before the plugin was registered', async () => {
    const app = Fastify()
    await app.register(async (child) => {
      child.get('/early', async (request) => ({ address: request.clientAddress, ip: request.ip }))
    })
    await app.register(clientAddressPlugin)
    try {
      const res = await app.inject({ url: '/early', remoteAddress: '203.0.113.10' })
      expect(res.json()).toEqual({ address: '203.0.113.10', ip: '203.0.113.10' })
    } finally {
      await app.close()
    }
  })

  it('is registered by name', async () => {
    const app = await appTrusting(false)
    expect(app.hasPlugin('client-address')).toBe(true)
    await app.close()
  })
})
