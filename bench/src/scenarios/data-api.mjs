// data-api scenarios (SPEC.md section 5): compared with the one-EVALSHA reference.
const base = { service: 'data-api', reference: 'evalsha', expectType: 'application/json' }

// Every connection cycles through the keys, so no key reaches its daily quota during a run, and
// no key has more than a few requests in flight (ENTERPRISE allows 8 concurrent POSTs per key).
const variants = ({ apiKeys }) => apiKeys.map((key) => ({ authorization: `Bearer ${key}` }))
const first = ({ apiKeys }) => ({
  authorization: `Bearer ${apiKeys[0]}`,
  accept: 'application/json',
})

const prose =
  'The quick brown fox jumps over the lazy dog. It was a bright cold day in April, and the ' +
  'clocks were striking thirteen. Call me Ishmael. '
/** 1 KB of English (ASCII, so 1,024 characters are 1,024 bytes). */
const text = prose.repeat(Math.ceil(1024 / prose.length)).slice(0, 1024)

export default [
  {
    ...base,
    name: 'data-api/get',
    title: 'GET /api/v1/data',
    method: 'GET',
    path: '/api/v1/data',
    headers: first,
    variants,
    body: undefined,
    target: 0.75,
  },
  {
    ...base,
    name: 'data-api/post-stats',
    title: 'POST /api/v1/data, stats of 1 KB',
    method: 'POST',
    path: '/api/v1/data',
    headers: first,
    variants,
    body: { data: text, options: { feature: 'stats' } },
    target: 0.5,
  },
]
