import { normalizeIP } from '@fastify/rate-limit'
import { describe, expect, it } from 'vitest'
import { addressKey, createAddressKey, IPV6_SUBNET } from '../src/address-key.js'

// What request.ip can be: the peer's address, or (behind a TRUST_PROXY proxy) whatever the proxy
// put in X-Forwarded-For.
const ADDRESSES = [
  '203.0.113.7',
  '127.0.0.1',
  '0.0.0.0',
  '::1',
  '::',
  '2001:db8:85a3::8a2e:370:7334',
  '2001:DB8:85A3:0:0:8A2E:370:7334',
  '2001:db8:1:2:ffff:ffff:ffff:ffff',
  '::ffff:203.0.113.7',
  '::FFFF:203.0.113.7',
  '::ffff:cb00:7107',
  'fe80::1%eth0',
  '64:ff9b::203.0.113.7',
  // Not addresses: lower-cased, as the plugin does.
  'UNKNOWN',
  'a:b',
  '::zz',
  '1:2:3',
  '203.0.113.7:8080',
  '[2001:db8::1]',
  '',
]

describe('addressKey: the per-address limits key', () => {
  it('is @fastify/rate-limit`s own key (IPv6 per /64) for every kind of address', () => {
    for (const ip of ADDRESSES) {
      expect(addressKey(ip), ip).toBe(normalizeIP(ip, IPV6_SUBNET))
      expect(addressKey(ip), `${ip}, remembered`).toBe(normalizeIP(ip, IPV6_SUBNET))
    }
    expect(addressKey('2001:db8:1:2::1')).toBe(addressKey('2001:db8:1:2:ffff::9'))
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'))
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
  })

  it('parses an IPv6 address once while it is remembered, and an IPv4 one never', () => {
    const parsed: string[] = []
    const key = createAddressKey(2, (ip, subnet) => {
      parsed.push(ip)
      return normalizeIP(ip, subnet)
    })
    for (let i = 0; i < 3; i += 1) {
      key('2001:db8::1')
      key('::ffff:198.51.100.1')
      key('198.51.100.2')
    }
    expect(parsed).toEqual(['2001:db8::1', '::ffff:198.51.100.1'])
    // A third address pushes out the least recently used one, which is parsed again.
    key('2001:db8:0:1::1')
    key('2001:db8::1')
    expect(parsed).toEqual(['2001:db8::1', '::ffff:198.51.100.1', '2001:db8:0:1::1', '2001:db8::1'])
  })
})
