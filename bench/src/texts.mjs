// Large texts for the heavy-input pass, built deterministically to a byte budget (UTF-8).
import { readCorpus, seededRandom } from './terms.mjs'

/** Joins `pieces()` (a generator) until the next one would pass `bytes`; cuts the last to fit. */
function fill(bytes, pieces) {
  const parts = []
  let total = 0
  for (const piece of pieces()) {
    const size = Buffer.byteLength(piece)
    if (total + size <= bytes) {
      parts.push(piece)
      total += size
      continue
    }
    let tail = ''
    for (const char of piece) {
      const next = Buffer.byteLength(char)
      if (total + next > bytes) break
      tail += char
      total += next
    }
    parts.push(tail)
    break
  }
  return parts.join('')
}

/**
 * English prose: the seed quotes in order (again and again), six to a paragraph, with a line
 * of contact details (e-mail, phone, a test card number, a documentation IP) every 25 quotes so
 * that redact has something to mask.
 */
export function englishText(bytes) {
  const corpus = readCorpus()
  return fill(bytes, function* () {
    for (let i = 0; ; i += 1) {
      const { quote, author } = corpus[i % corpus.length]
      const sentence = /[.!?]$/.test(quote.trim()) ? quote.trim() : `${quote.trim()}.`
      yield `${sentence} (${author}) `
      if (i % 25 === 24) {
        yield `Write to reader.${i}@example.com or call +1 555 010 ${String(i % 10_000).padStart(4, '0')}; ` +
          `card 4111 1111 1111 1111, server 192.0.2.${i % 256}. `
      }
      if (i % 6 === 5) yield '\n\n'
    }
  })
}

// About 500 of the most used Chinese characters.
const HANZI =
  '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对' +
  '可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同' +
  '三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定' +
  '女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化' +
  '由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应' +
  '路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许' +
  '八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带' +
  '花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻' +
  '程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形'

/** Chinese-looking text: runs of 4-15 common characters ending in ，or 。, paragraphs of 20. */
export async function cjkText(bytes, seed) {
  const random = await seededRandom(seed)
  const chars = [...HANZI]
  return fill(bytes, function* () {
    for (let i = 0; ; i += 1) {
      const length = 4 + Math.floor(random() * 12)
      let clause = ''
      for (let c = 0; c < length; c += 1) clause += chars[Math.floor(random() * chars.length)]
      yield `${clause}${random() < 0.4 ? '。' : '，'}`
      if (i % 20 === 19) yield '\n\n'
    }
  })
}
