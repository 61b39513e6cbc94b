// Mutation testing of quotes' pure code (negotiation, pagination, ETags, search terms, slugs, the
// group index, share cards, synthetic quotes, progress bars, the response helpers on a bare
// Fastify app, the refresher) by its unit tests (pnpm test:mutation). The rest of src/lib (what
// queries Postgres or reads the stores): stryker.integration.config.mjs.
import { strykerConfig } from '../../stryker.base.mjs'

export const unitFiles = [
  'src/lib/etag.ts',
  'src/lib/group-index.ts',
  'src/lib/highlight.ts',
  'src/lib/link-header.ts',
  'src/lib/negotiate.ts',
  'src/lib/paged-response.ts',
  'src/lib/pagination.ts',
  'src/lib/progress.ts',
  'src/lib/refresher.ts',
  'src/lib/respond.ts',
  'src/lib/search-page.ts',
  'src/lib/search-term.ts',
  'src/lib/share-card.ts',
  'src/lib/slug.ts',
  'src/lib/stored-quote.ts',
  'src/lib/synthetic.ts',
]

export default strykerConfig({
  name: 'quotes-unit',
  mutate: unitFiles,
  tests: ['test/unit/**/*.test.ts'],
})
