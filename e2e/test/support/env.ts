/** Base URLs of the stack under test, without a trailing slash. */
export const QUOTES_URL = (process.env.QUOTES_URL || 'http://localhost:3000').replace(/\/+$/, '')
export const DATA_API_URL = (process.env.DATA_API_URL || 'http://localhost:3001').replace(
  /\/+$/,
  '',
)

/** Sent on every request: the quotes service asks clients to name themselves. */
export const USER_AGENT = 'repo-e2e-tests (+https://github.com/; e2e@example.com)'
