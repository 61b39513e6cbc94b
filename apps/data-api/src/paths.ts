import { fileURLToPath } from 'node:url'

// Resolved from this file so they hold both for src/ (tests, tsx) and dist/ (production).
const root = new URL('..', import.meta.url)

export const paths = {
  migrations: fileURLToPath(new URL('migrations', root)),
  views: fileURLToPath(new URL('views', root)),
  public: fileURLToPath(new URL('public', root)),
}
