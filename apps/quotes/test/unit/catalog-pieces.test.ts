import { describe, expect, it } from 'vitest'
import { groupIndexOf, parseIntList } from '../../src/lib/catalog.js'
import { GroupIndex } from '../../src/lib/group-index.js'
import { highlight, highlightResults } from '../../src/lib/highlight.js'
import { pagingLinkHeader } from '../../src/lib/link-header.js'
import { pageInfo } from '../../src/lib/pagination.js'
import { escapeXml, wrap } from '../../src/lib/share-card.js'
import { fold, slugify, uniqueSlugs } from '../../src/lib/slug.js'
import { syntheticGenerator } from '../../src/lib/synthetic.js'
import { nextUtcMidnight, utcDay } from '../../src/lib/today.js'

describe('slugs', () => {
  it('are ASCII words joined by hyphens', () => {
    expect(slugify('Anaïs Nin')).toBe('anais-nin')
    expect(slugify('Dag Hammarskjöld')).toBe('dag-hammarskjold')
    expect(slugify('Søren Kierkegaard')).toBe('soren-kierkegaard')
    expect(slugify('J.R.R. Tolkien')).toBe('j-r-r-tolkien')
    expect(slugify('孔子', 'author')).toBe('author')
  })

  it('start from the folded name: lower case, accents dropped, everything else kept', () => {
    expect(fold('Anaïs NIN, Søren')).toBe('anais nin, søren')
    expect(fold('ﬁne Ǆ')).toBe('fine dz')
  })

  it('disambiguate collisions in input order', () => {
    const taken = new Set(['chuang-tzu'])
    expect(uniqueSlugs(['Chuang-tzu', 'CHUANG TZU', '老子', '老子 2'], taken, 'author')).toEqual([
      'chuang-tzu-2',
      'chuang-tzu-3',
      'author',
      '2',
    ])
  })
})

describe('GroupIndex', () => {
  // groups 0 and 2; sorted by (group, length, num)
  const index = GroupIndex.build([0, 0, 0, 2, 2], [5, 10, 10, 3, 30], [7, 1, 4, 9, 2])

  it('finds a group within a length range', () => {
    expect(index.count(0)).toBe(3)
    expect(index.count(1)).toBe(0)
    expect(index.count(9)).toBe(0)
    expect(index.range(0, 6, 10)).toEqual([1, 3])
    expect(index.range(0, 11, 20)).toEqual([3, 3])
    expect(index.range(2)).toEqual([3, 5])
    expect(index.range(2, 10, 5)).toEqual([0, 0])
  })

  it('knows its members', () => {
    expect(index.has(0, 10, 4)).toBe(true)
    expect(index.has(0, 10, 9)).toBe(false)
    expect(index.has(2, 30, 2)).toBe(true)
  })
})

describe('highlight', () => {
  it('marks every case-insensitive occurrence, leaving escaping to the template', () => {
    expect(highlight('Love & love', 'LOVE')).toEqual([
      { text: 'Love', mark: true },
      { text: ' & ', mark: false },
      { text: 'love', mark: true },
    ])
    expect(highlight('a (b)* c', '(b)*')).toEqual([
      { text: 'a ', mark: false },
      { text: '(b)*', mark: true },
      { text: ' c', mark: false },
    ])
    expect(highlight('abc', '')).toEqual([{ text: 'abc', mark: false }])
  })

  it("splits each search result's quote and author alike", () => {
    const results = [
      { quote: 'Owls hoot', author: 'Owl' },
      { quote: 'Quiet', author: 'A. Nonymous' },
    ]
    expect(highlightResults(results, 'owl')).toEqual([
      {
        quote: [
          { text: 'Owl', mark: true },
          { text: 's hoot', mark: false },
        ],
        author: [{ text: 'Owl', mark: true }],
      },
      { quote: [{ text: 'Quiet', mark: false }], author: [{ text: 'A. Nonymous', mark: false }] },
    ])
  })
})

describe('Link header', () => {
  it('lists first, prev, next and last, keeping the query', () => {
    expect(pagingLinkHeader('/api/authors?term=a%20b&page=2', pageInfo(100, 2, 20))).toBe(
      '</api/authors?term=a+b&page=1>; rel="first", </api/authors?term=a+b&page=1>; rel="prev", ' +
        '</api/authors?term=a+b&page=3>; rel="next", </api/authors?term=a+b&page=5>; rel="last"',
    )
    expect(pagingLinkHeader('/search', pageInfo(0, 1, 20))).toBe(
      '</search?page=1>; rel="first", </search?page=1>; rel="last"',
    )
  })
})

describe('share card text', () => {
  it('escapes XML and wraps on words, cutting words longer than a line', () => {
    expect(escapeXml(`<a href="x">&'`)).toBe('&#60;a href=&#34;x&#34;&#62;&#38;&#39;')
    expect(wrap('one two three four', 9)).toEqual(['one two', 'three', 'four'])
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij'])
  })
})

describe('quote of the day clock', () => {
  it('knows the UTC day and the next midnight', () => {
    const at = new Date('2026-12-31T23:30:00Z')
    expect(utcDay(at)).toBe('2026-12-31')
    expect(nextUtcMidnight(at).toISOString()).toBe('2027-01-01T00:00:00.000Z')
  })
})

describe('synthetic quotes', () => {
  it('copy tags from the corpus', () => {
    const next = syntheticGenerator(
      [
        { id: 'q1', quote: 'Love is all', author: 'A', source: 'quotable', tags: ['Love'] },
        { id: 'q2', quote: 'Work is all', author: 'B', source: 'fortunes', tags: [] },
      ],
      1,
    )
    const tags = new Set(Array.from({ length: 50 }, () => next().tags.join()))
    expect(tags).toEqual(new Set(['Love', '']))
  })
})

describe('parseIntList', () => {
  it('reads comma-separated integers', () => {
    expect([...parseIntList('1,22,333,0,-4')]).toEqual([1, 22, 333, 0, -4])
    expect([...parseIntList('7')]).toEqual([7])
    expect(parseIntList(null)).toHaveLength(0)
    expect(parseIntList('')).toHaveLength(0)
  })
})

describe('groupIndexOf', () => {
  it('sorts (group, length, num) triples into index order when they are not', () => {
    const g = Int32Array.from([1, 0, 1, 0, 1])
    const l = Int32Array.from([5, 9, 5, 3, 2])
    const n = Int32Array.from([8, 1, 4, 7, 6])
    const index = groupIndexOf(g, l, n)
    expect([...index.nums]).toEqual([7, 1, 6, 4, 8])
    expect(index.range(1, 5, 5)).toEqual([3, 5])
    expect(index.has(0, 9, 1)).toBe(true)
    expect(index.has(1, 2, 6)).toBe(true)
  })

  it('takes triples already in index order as they are', () => {
    const n = Int32Array.from([7, 1, 6])
    const index = groupIndexOf(Int32Array.from([0, 0, 1]), Int32Array.from([3, 9, 2]), n)
    expect(index.nums).toBe(n)
    expect(index.count(0)).toBe(2)
  })
})
