/** Letters NFKD does not decompose into ASCII, spelled the usual way. */
const TRANSLITERATE: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
}

/** Lower case without accents: `Anaïs` and `anais` compare equal. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
}

/**
 * A URL slug: ASCII lower-case letters and digits joined by single hyphens. Accents are dropped
 * (`Anaïs Nin` → `anais-nin`); a name with no Latin letter or digit at all gets `fallback`.
 */
export function slugify(name: string, fallback = 'x'): string {
  const slug = fold(name)
    .replace(/[ßæœøłđðþı]/g, (c) => TRANSLITERATE[c] as string)
    // Every run of other characters is one hyphen: at most one at each end, or at the cut.
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
  return slug === '' ? fallback : slug.slice(0, 80).replace(/-$/, '')
}

/**
 * Slugs for new names that are unique among `taken` (which it extends): a name whose slug is
 * taken gets `-2`, `-3`, ... in the order given, so the same input gives the same slugs.
 */
export function uniqueSlugs(names: string[], taken: Set<string>, fallback: string): string[] {
  return names.map((name) => {
    const base = slugify(name, fallback)
    let slug = base
    for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`
    taken.add(slug)
    return slug
  })
}
