// quotes service scenarios (SPEC.md section 5), each compared with the bare Fastify reference.
import { settings } from '../config.mjs'
import { rareTerm, readCorpus, vocabulary } from '../terms.mjs'

const corpus = readCorpus()
/** How often each word occurs in the seed quotes (apps/quotes/data/quotes.json). */
export const counts = vocabulary(corpus)
/** A term matching 1 to 3 seed quotes. */
export const rare = rareTerm(corpus, counts, settings.seed)

const json = { accept: 'application/json' }

/** Fields: see README.md "Adding a scenario". */
const base = { service: 'quotes', method: 'GET', body: undefined, reference: 'constant-json' }

export default [
  { ...base, name: 'quotes /api/q/q1 JSON', path: '/api/q/q1', headers: json, target: 0.8 },
  { ...base, name: 'quotes /api/q/q1 plain', path: '/api/q/q1', headers: {}, target: 0.8 },
  { ...base, name: 'quotes /api JSON', path: '/api', headers: json, target: 0.8 },
  { ...base, name: 'quotes /api plain', path: '/api', headers: {}, target: 0.8 },
  {
    ...base,
    name: 'quotes search common (love)',
    path: '/api/search?term=love',
    headers: json,
    target: 0.5,
  },
  {
    ...base,
    name: `quotes search rare (${rare.term})`,
    path: `/api/search?term=${encodeURIComponent(rare.term)}`,
    headers: json,
    target: 0.5,
  },
].map((scenario) => ({
  ...scenario,
  // Checked once before measuring: the response must be 2xx with this media type.
  expectType: scenario.headers.accept === 'application/json' ? 'application/json' : 'text/plain',
}))
