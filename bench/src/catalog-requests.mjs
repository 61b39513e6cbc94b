// Requests of the scale passes for authors and the filtered random quote (issue 12): drawn
// reproducibly from the authors and tags the service itself lists (their slugs depend on the
// database), each URL distinct, so no response comes from a cache of an earlier request.
import { settings } from './config.mjs'
import { seededRandom } from './terms.mjs'

async function getJson(url) {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(60_000),
  })
  if (!response.ok) throw new Error(`${url}: ${response.status}`)
  return response.json()
}

/** Every author (slug and count) and tag slug of the running service; not measured. */
async function listings(url) {
  const authors = []
  for (let page = 1; ; page += 1) {
    const body = await getJson(`${url}/api/authors?limit=30&page=${page}`)
    authors.push(...body.results)
    if (page >= body.total_pages) break
  }
  const tags = (await getJson(`${url}/api/tags`)).results
  return { authors, tags }
}

const pick = (list, random) => list[Math.floor(random() * list.length)]

/** `n` filtered random requests: author, tag, length, and combinations. */
export async function filteredRandomRequests(service, n = settings.coldTerms) {
  const { authors, tags } = await listings(service.url)
  const random = await seededRandom(settings.seed + 1)
  const kinds = [
    ['author', () => ({ author: pick(authors, random).slug })],
    ['tag', () => ({ tag: pick(tags, random).slug })],
    [
      'length',
      () => {
        const min = Math.floor(random() * 200)
        return { minLength: min, maxLength: min + 20 + Math.floor(random() * 200) }
      },
    ],
    [
      'author+tag',
      () => ({ author: pick(authors, random).slug, tag: pick(tags.slice(0, 10), random).slug }),
    ],
    ['tag+length', () => ({ tag: pick(tags, random).slug, minLength: Math.floor(random() * 150) })],
  ]
  return Array.from({ length: n }, (_, i) => {
    const [kind, params] = kinds[i % kinds.length]
    const query = new URLSearchParams(Object.entries(params()).map(([k, v]) => [k, String(v)]))
    return { kind, term: query.toString(), path: `/api?${query}`, allow404: kind === 'author+tag' }
  })
}

/** `n` author requests: first pages, deep pages, and the author list filtered by a name. */
export async function authorPageRequests(service, n = settings.coldTerms) {
  const { authors } = await listings(service.url)
  const random = await seededRandom(settings.seed + 2)
  const order = [...authors].sort(() => random() - 0.5)
  return Array.from({ length: n }, (_, i) => {
    const author = order[i % order.length]
    const pages = Math.max(1, Math.ceil(author.quote_count / 20))
    if (i % 3 === 0)
      return { kind: 'first page', term: author.slug, path: `/api/authors/${author.slug}` }
    if (i % 3 === 1) {
      const page = 1 + Math.floor(random() * pages)
      return {
        kind: 'any page',
        term: `${author.slug} p${page}`,
        path: `/api/authors/${author.slug}?page=${page}`,
      }
    }
    const term = author.name.split(/\s+/).at(-1).slice(0, 6)
    return {
      kind: 'list by name',
      term,
      path: `/api/authors?term=${encodeURIComponent(term)}&sort=count&page=1&limit=${1 + (i % 30)}`,
    }
  })
}
