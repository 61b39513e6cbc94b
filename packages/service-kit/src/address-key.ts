import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyRequest } from 'fastify'
import { boundedCache } from './bounded-cache.js'

/** Every per-address limit counts an IPv6 client by its /64 (one subscriber's network). */
export const IPV6_SUBNET = 64

/** Client addresses whose key is remembered: a few MB, least recently seen out first. */
const REMEMBERED = 10_000

/**
 * The key of a client address in every per-address limit: @fastify/rate-limit's own
 * `normalizeIP(ip, 64)` (an IPv6 address as its /64, an IPv4-mapped one as IPv4, anything else
 * lower-cased), the same string, remembered per address.
 *
 * The plugin's default key generator runs `normalizeIP` on every request. For an IPv4 address it
 * is one regular-expression test; for an IPv6 address (or IPv4-mapped, as on a dual-stack
 * listener) it parses the address twice with `ip-address`: 9-19 µs a call on its own, and quotes
 * `GET /api/q/q1` from an IPv6 client cost 58-101 µs of CPU against 34-44 from an IPv4 one
 * (bench/README.md, "IPv6 clients"). A client sends many requests from one address, so the key is
 * made once per address. An address without `:` is never IPv6 and needs no look-up.
 */
export function createAddressKey(
  remembered = REMEMBERED,
  normalize: (ip: string, ipv6Subnet: number) => string = normalizeIP,
): (ip: string) => string {
  const keys = boundedCache<string, string>(remembered)
  return (ip) => {
    if (!ip.includes(':')) return ip.toLowerCase()
    let key = keys.get(ip)
    if (key === undefined) {
      key = normalize(ip, IPV6_SUBNET)
      keys.set(ip, key)
    }
    return key
  }
}

/** The process's one remembering key function (a pure function: one memory serves every app). */
export const addressKey = createAddressKey()

/** A request's per-address key: the `keyGenerator` of every per-address @fastify/rate-limit. */
export function requestAddressKey(request: FastifyRequest): string {
  return addressKey(request.clientAddress)
}
