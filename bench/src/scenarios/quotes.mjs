// quotes service scenarios (SPEC.md section 5), each compared with the constant-JSON reference.
import { rareTerm } from '../terms.mjs'

const json = { accept: 'application/json' }
const search = (term) => `/api/search?term=${encodeURIComponent(term)}`

/** Fields: see README.md "Adding a scenario". */
const base = { service: 'quotes', method: 'GET', body: undefined, reference: 'constant-json' }

export default [
  { name: 'quotes/q-json', title: 'GET /api/q/q1, JSON', path: '/api/q/q1', headers: json },
  { name: 'quotes/q-plain', title: 'GET /api/q/q1, plain text', path: '/api/q/q1', headers: {} },
  { name: 'quotes/random-json', title: 'GET /api, JSON', path: '/api', headers: json },
  { name: 'quotes/random-plain', title: 'GET /api, plain text', path: '/api', headers: {} },
  {
    name: 'quotes/search-common',
    title: 'GET /api/search?term=love, JSON',
    path: search('love'),
    headers: json,
    target: 0.6,
  },
  {
    name: 'quotes/search-rare',
    title: 'GET /api/search?term=<a word of 1-3 quotes>, JSON',
    path: async () => search((await rareTerm()).term),
    headers: json,
    target: 0.6,
  },
].map((scenario) => ({
  ...base,
  target: 0.8,
  ...scenario,
  // Checked once before measuring: the response must be 2xx with this media type.
  expectType: scenario.headers.accept === 'application/json' ? 'application/json' : 'text/plain',
}))
