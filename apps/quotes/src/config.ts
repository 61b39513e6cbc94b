import { baseConfigProperties, loadConfig } from '@repo/service-kit'
import { type Static, Type } from 'typebox'

export const QuotesConfigSchema = Type.Object({
  ...baseConfigProperties({ port: 3000, database: 'quotes' }),
  /** Hard ceiling of requests per client address per window; 0 disables it. */
  RATE_LIMIT_MAX: Type.Integer({ minimum: 0, default: 1000 }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 60_000 }),
  /** How long clients and shared caches may reuse a quote or a search page. */
  CACHE_MAX_AGE_SECONDS: Type.Integer({ minimum: 0, default: 3600 }),
  /** Quotes kept in memory; a corpus this size or smaller is loaded whole at start-up. */
  QUOTE_CACHE_MAX: Type.Integer({ minimum: 100, default: 50_000 }),
  /** How often the in-memory view of the corpus is reloaded from Postgres. */
  CORPUS_REFRESH_SECONDS: Type.Integer({ minimum: 1, default: 600 }),
  /**
   * The service's public origin (e.g. https://quotes.example.org), for absolute links such as the
   * share-card image in Open Graph tags. Empty: each request's own scheme and Host (behind a
   * proxy, set TRUST_PROXY so X-Forwarded-Proto/Host count).
   */
  PUBLIC_URL: Type.String({ default: '', pattern: '^(https?://[^\\s/?#]+/?)?$' }),
  /** Apply migrations and seed an empty database before listening. */
  MIGRATE_ON_START: Type.Boolean({ default: true }),
})

export type QuotesConfig = Static<typeof QuotesConfigSchema>

export function loadQuotesConfig(
  env: Record<string, string | undefined> = process.env,
): QuotesConfig {
  return loadConfig(QuotesConfigSchema, env)
}
