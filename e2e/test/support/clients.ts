import { createDataApiClient, createQuotesClient } from '@repo/client'
import { DATA_API_URL, QUOTES_URL, USER_AGENT } from './env.js'

/** The typed client of the data API (@repo/client), as a user of the API would hold it. */
export const dataApi = (apiKey: string) =>
  createDataApiClient({ baseUrl: DATA_API_URL, apiKey, userAgent: USER_AGENT })

/** The typed client of the quotes API (JSON). */
export const quotesApi = createQuotesClient({ baseUrl: QUOTES_URL, userAgent: USER_AGENT })
