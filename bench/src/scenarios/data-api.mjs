// data-api scenarios (SPEC.md section 5): compared with the one-Redis-round-trip reference.
const base = { service: 'data-api', reference: 'redis-round-trip', expectType: 'application/json' }

// Every connection cycles through the keys, so no key reaches its daily quota during a run.
const variants = ({ apiKeys }) => apiKeys.map((key) => ({ authorization: `Bearer ${key}` }))
const first = ({ apiKeys }) => ({
  authorization: `Bearer ${apiKeys[0]}`,
  accept: 'application/json',
})

const text =
  'The quick brown fox jumps over the lazy dog. It was a bright cold day in April, and the ' +
  'clocks were striking thirteen. Call me Ishmael. '

export default [
  {
    ...base,
    name: 'data-api GET /api/v1/data',
    method: 'GET',
    path: '/api/v1/data',
    headers: first,
    variants,
    body: undefined,
    target: 0.9,
  },
  {
    ...base,
    name: 'data-api POST /api/v1/data (stats, 1 KB)',
    method: 'POST',
    path: '/api/v1/data',
    headers: first,
    variants,
    body: { data: text.repeat(7), options: { feature: 'stats' } },
    // The spec sets no target for POST; reported for information against the same reference.
    target: undefined,
  },
]
