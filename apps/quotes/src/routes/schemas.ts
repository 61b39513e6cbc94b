import { QuoteResponse, SearchResponse } from '@repo/contracts'
import { Type } from 'typebox'

const text = (description: string) => Type.String({ description })

/** A response in the three negotiated formats (see the Accept rules in the API description). */
export function negotiated(description: string, json: unknown, jsonType = 'application/json') {
  return {
    description,
    content: {
      [jsonType]: { schema: json },
      'text/plain': { schema: text('Plain text') },
      'text/html': { schema: text('An HTML page') },
    },
  }
}

export const problem = (description: string) =>
  negotiated(description, Type.Ref('Problem'), 'application/problem+json')

const tooManyRequests = problem('Too many requests from this address (hard ceiling)')

/** What every cacheable route answers besides its own: 304 to If-None-Match, and 429. */
export const cacheable = {
  304: { description: 'Not modified (If-None-Match matched the ETag)', type: 'null' },
  429: tooManyRequests,
}

export const quoteResponses = {
  200: negotiated('The quote: JSON object, its text only, or a page', QuoteResponse),
  429: tooManyRequests,
}

export const quoteByIdResponses = {
  ...quoteResponses,
  ...cacheable,
  400: problem('The id is longer than 64 characters'),
  404: problem('No quote has this id'),
}

export const searchResponses = {
  200: negotiated(
    'A search page: JSON object, the texts one per line, or a page with pagination links',
    SearchResponse,
  ),
  ...cacheable,
  400: problem('A parameter is invalid'),
}
