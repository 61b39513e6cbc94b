import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { normalizeToken, stopWordsFor } from '../../../src/features/text.js'

const stopwordLists = createRequire(import.meta.url)('stopword') as Record<string, string[]>

/** Words the `stopword` English list leaves out but that are no keywords either. */
const ENGLISH_EXTRA = (
  "ain't aren't can't cannot couldn't didn't doesn't does doing don't done down either else " +
  "even ever every few hadn't hasn't haven't he'd he'll he's hers herself i'd i'll i'm i've " +
  "isn't it's its itself just let's may mine myself neither no nor not off often once ones " +
  "ours ourselves own per rather really she'd she'll she's shall shouldn't so that's theirs " +
  "themselves there's they'd they'll they're they've thus till until upon us via wasn't " +
  "we'd we'll we're we've weren't what's whom whose why will won't wouldn't yet you'd " +
  "you'll you're you've yours yourself yourselves"
).split(' ')

describe('stop words', () => {
  it('treats contractions, auxiliaries, negations and frequent adverbs as English stop words', () => {
    const english = stopWordsFor('eng')
    expect(ENGLISH_EXTRA.filter((word) => !english.has(word))).toEqual([])
    expect(stopwordLists.eng?.every((word) => english.has(word))).toBe(true)
  })

  it.each([
    ['arb', 'ara'],
    ['cmn', 'zho'],
    ['ekk', 'est'],
    ['kmr', 'kur'],
    ['ckb', 'kur'],
    ['lvs', 'lav'],
    ['pes', 'fas'],
    ['prs', 'fas'],
    ['swh', 'swa'],
    ['zlm', 'msa'],
  ])("finds franc's %s under stopword's %s, with English", (franc, key) => {
    const words = stopWordsFor(franc)
    const own = (stopwordLists[key] ?? []).map((word) => word.toLowerCase())
    expect(own.length).toBeGreaterThan(0)
    expect(own.filter((word) => !words.has(word))).toEqual([])
    expect(words.has('the')).toBe(true)
  })

  it('takes a language of its own list by its code, and one without a list as English', () => {
    expect(stopWordsFor('fra').has('nous')).toBe(true)
    expect([...stopWordsFor('qqq')].sort()).toEqual([...stopWordsFor('eng')].sort())
  })
})

describe('normalizeToken', () => {
  it('lower-cases a token and makes typographic apostrophes plain', () => {
    expect(normalizeToken('Don’t')).toBe("don't")
    expect(normalizeToken('ÉTÉ')).toBe('été')
  })
})
