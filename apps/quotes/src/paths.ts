import { fileURLToPath } from 'node:url'

// Resolved from this file so they hold both for src/ (tests, tsx) and dist/ (production).
const root = new URL('..', import.meta.url)

/** The package's folder (platformPlugin finds views/, public/ and package.json there). */
export const packageRoot = root

export const paths = {
  migrations: fileURLToPath(new URL('migrations', root)),
  seedFile: fileURLToPath(new URL('data/quotes.json', root)),
  views: fileURLToPath(new URL('views', root)),
  public: fileURLToPath(new URL('public', root)),
  /** The share cards' font (DejaVu Serif, licence beside it). */
  cardFont: fileURLToPath(new URL('assets/fonts/DejaVuSerif.ttf', root)),
}
