/*
 * The input classes every feature must handle in linear time (SPEC section 3, "Heavy and hostile
 * input"), generated deterministically at any size: the linearity tests use them at a few
 * kilobytes, scripts/feature-timings.ts at 100 KB and 1 MB. Prose is built from real sentences
 * or real words in random order (a seeded generator), so that no two sentences repeat and
 * nothing a feature deduplicates makes it cheaper than real text would be.
 */

import { seededRandom } from '@repo/service-kit'

type Next = () => number
const pick = <T>(next: Next, items: readonly T[]): T =>
  items[Math.floor(next() * items.length)] as T
const between = (next: Next, low: number, high: number) =>
  low + Math.floor(next() * (high - low + 1))

const WORDS = (
  'the of and to in is was for that with as on by at from it be this have are not but had his ' +
  'they which one you were her all she there would their we him been has when who will more no ' +
  'if out so said what up its about into than them can only other new some could time these two ' +
  'may then do first any my now such like our over man me even most made after also did many ' +
  'before must through back years where much your way well down should because each just those ' +
  'people how too little state good very make world still own see men work long get here between ' +
  'both life being under never day same another know while last might us great old year off come ' +
  "since against go came right used take three don't isn't well-known market river garden music " +
  'letter station winter morning question answer problem number system country company program ' +
  'government water history family house school report million business service power money ' +
  'happy terrible wonderful bad love hate excellent awful calm brave broken bright'
).split(' ')
const FIRST_NAMES =
  'Anna Barack Carlos Dmitri Elena Fatima George Hiroshi Ingrid Jamal Kofi Lucia Marie Noah Olga Pedro Quentin Rosa Samuel Tara'.split(
    ' ',
  )
const LAST_NAMES =
  'Obama Garcia Ivanov Rossi Tanaka Okafor Schmidt Dubois Kowalski Nakamura Silva Johansson Haddad Murphy Novak Moreau Patel Chen Larsen Weber'.split(
    ' ',
  )
const PLACES = [
  'Paris',
  'Berlin',
  'New York',
  'Tokyo',
  'Lagos',
  'Lima',
  'Cairo',
  'Oslo',
  'Texas',
  'Kenya',
]
const ORGANISATIONS = [
  'Microsoft',
  'the United Nations',
  'Google',
  'Oxford University',
  'the World Bank',
]

function englishSentence(next: Next): string {
  const words: string[] = []
  const length = between(next, 5, 22)
  for (let i = 0; i < length; i++) {
    const roll = next()
    if (roll < 0.04) words.push(`${pick(next, FIRST_NAMES)} ${pick(next, LAST_NAMES)}`)
    else if (roll < 0.06) words.push(`in ${pick(next, PLACES)}`)
    else if (roll < 0.07) words.push(pick(next, ORGANISATIONS))
    else words.push(pick(next, WORDS))
    if (next() < 0.06) words.push(',')
  }
  const text = words.join(' ').replaceAll(' ,', ',')
  const ending = pick(next, ['.', '.', '.', '.', '!', '?'])
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${ending}`
}

/** Sentences in paragraphs of 2 to 6, separated by blank lines. */
function paragraphs(sentence: (next: Next) => string, separator = ' '): (next: Next) => string {
  return (next) => {
    const count = between(next, 2, 6)
    const parts: string[] = []
    for (let i = 0; i < count; i++) parts.push(sentence(next))
    return `${parts.join(separator)}\n\n`
  }
}

/** Real sentences, their words (split on spaces or characters) shuffled within a sentence. */
function shuffled(sentences: readonly string[], joiner: string): (next: Next) => string {
  const split = sentences.map((s) => (joiner === ' ' ? s.split(' ') : [...s]))
  return (next) => {
    const words = [...pick(next, split)]
    for (let i = words.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1))
      ;[words[i], words[j]] = [words[j] as string, words[i] as string]
    }
    return words.join(joiner)
  }
}

const CHINESE = [
  '今天天气很好我们去公园散步',
  '这家公司的新产品在市场上很受欢迎',
  '他在北京大学学习计算机科学已经三年了',
  '中国的历史非常悠久文化也很丰富',
  '我们应该保护环境节约用水',
  '请问去火车站怎么走',
  '这本书讲述了一个关于友谊的故事',
  '经济发展需要科技创新和人才培养',
]
const JAPANESE = [
  '今日はとても良い天気ですね',
  '東京駅から新幹線で大阪へ行きました',
  'この本はとても面白かったです',
  '私は毎朝コーヒーを飲みながら新聞を読みます',
  '日本の文化について勉強しています',
  'コンピューターのプログラムを書くのが好きです',
  '来週の会議は水曜日の午後三時からです',
  'カタカナとひらがなと漢字を使います',
]
const THAI = [
  'วันนี้อากาศดีมากเราไปเดินเล่นที่สวนกัน',
  'ประเทศไทยมีอาหารอร่อยหลายอย่าง',
  'ฉันชอบอ่านหนังสือก่อนนอนทุกคืน',
  'กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย',
  'นักเรียนกำลังเรียนภาษาอังกฤษในห้องเรียน',
  'เขาทำงานที่บริษัทคอมพิวเตอร์มาห้าปีแล้ว',
]
const ARABIC = [
  'ذهب الطالب إلى المدرسة في الصباح الباكر',
  'اللغة العربية من أقدم اللغات في العالم',
  'يحب الناس القهوة العربية كثيراً',
  'تقع مدينة القاهرة على ضفاف نهر النيل',
  'قرأتُ كتاباً جميلاً عن تاريخ الأندلس',
  'الشمسُ مشرقةٌ والسماءُ صافيةٌ اليوم',
]
const EMOJI = [
  '👨‍👩‍👧‍👦',
  '👩🏽‍💻',
  '👍🏿',
  '🏳️‍🌈',
  '🇫🇷',
  '🇯🇵',
  '❤️',
  '😀',
  '😡',
  '🤦🏼‍♂️',
  '1️⃣',
  '🏴󠁧󠁢󠁳󠁣󠁴󠁿',
  '🧑🏾‍🤝‍🧑🏻',
  '✈️',
  '👋🏻',
  '🙂',
  '🎉',
]
const PUNCTUATION = [...'.,;:!?…‽-—–()[]{}"\'“”‘’«»/\\@#%&*+=<>|~^_`。、！？']

function emoji(next: Next): string {
  const parts: string[] = []
  const count = between(next, 1, 12)
  for (let i = 0; i < count; i++) parts.push(pick(next, EMOJI))
  return parts.join(next() < 0.5 ? '' : ' ') + (next() < 0.2 ? '\n' : ' ')
}

function mixed(next: Next): string {
  const roll = next()
  if (roll < 0.3) return `${englishSentence(next)} `
  if (roll < 0.4)
    return `Write to ${pick(next, FIRST_NAMES).toLowerCase()}${between(next, 1, 999)}@example.com or call +44 20 7946 ${between(next, 1000, 9999)}. `
  if (roll < 0.45)
    return `Card 4111 1111 1111 1111, host 192.168.${between(next, 0, 255)}.${between(next, 0, 255)} and 2001:db8::${between(next, 1, 9999)}. `
  if (roll < 0.55) return `${shuffled(CHINESE, '')(next)}。`
  if (roll < 0.6) return `${shuffled(JAPANESE, '')(next)}。`
  if (roll < 0.65) return `${shuffled(THAI, '')(next)} `
  if (roll < 0.75) return `${shuffled(ARABIC, ' ')(next)}. `
  if (roll < 0.85) return emoji(next)
  if (roll < 0.9)
    return `${String(next()).slice(2)} ${between(next, 0, 99)}-${between(next, 0, 99)} `
  if (roll < 0.95) return `${pick(next, PUNCTUATION).repeat(between(next, 1, 20))}\n`
  return '\n'.repeat(between(next, 1, 4))
}

/** Each class: a generator of the next piece of text. */
export const INPUT_CLASSES = {
  english: paragraphs(englishSentence),
  chinese: paragraphs((next) => `${shuffled(CHINESE, '')(next)}。`, ''),
  japanese: paragraphs((next) => `${shuffled(JAPANESE, '')(next)}。`, ''),
  thai: paragraphs(shuffled(THAI, '')),
  arabic: paragraphs((next) => `${shuffled(ARABIC, ' ')(next)}.`),
  emoji,
  digits: (next: Next) => String(next()).slice(2, 12).padEnd(10, '7'),
  'digit groups': (next: Next) =>
    `${String(between(next, 0, 99_999)).slice(0, between(next, 1, 5))}${pick(next, [' ', '-', '.', ' (', ') ', '+', ' ', '/'])}`,
  punctuation: (next: Next) => pick(next, PUNCTUATION),
  'one word': (next: Next) => String.fromCharCode(97 + Math.floor(next() * 26)),
  newlines: () => '\n',
  mixed,
} satisfies Record<string, (next: Next) => string>

export type InputClass = keyof typeof INPUT_CLASSES
export const INPUT_CLASS_NAMES = Object.keys(INPUT_CLASSES) as InputClass[]

const encoder = new TextEncoder()

/**
 * `bytes` UTF-8 bytes of the class (cut at a code point, so a little under), the same text for
 * the same class and seed.
 */
export function inputOf(kind: InputClass, bytes: number, seed = 1): string {
  const next = seededRandom(seed)
  const generate = INPUT_CLASSES[kind]
  const parts: string[] = []
  let size = 0
  while (size < bytes) {
    const part = generate(next)
    parts.push(part)
    size += encoder.encode(part).length
  }
  let text = parts.join('')
  while (encoder.encode(text).length > bytes) {
    const excess = encoder.encode(text).length - bytes
    text = text.slice(0, Math.max(0, text.length - Math.max(1, Math.floor(excess / 4))))
    if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1)
  }
  return text
}
