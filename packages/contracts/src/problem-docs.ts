import type { ProblemCode } from './problem.js'

/** What each problem code means and what a client should do about it: the /problems pages. */
export interface ProblemDoc {
  title: string
  meaning: string
  action: string
}

export const PROBLEM_DOCS: Record<ProblemCode, ProblemDoc> = {
  INVALID_REQUEST: {
    title: 'Invalid request',
    meaning:
      'The request is malformed: the body is not valid JSON, a field has the wrong type, or a parameter or option is out of range. data-api also ends with it a feature request whose connection closed before its feature started (no one receives that answer).',
    action: '`detail` names what is wrong. Fix the request before sending it again.',
  },
  UNKNOWN_FEATURE: {
    title: 'Unknown feature',
    meaning: '`options.feature` names no feature of the API.',
    action: 'Use one of the features listed in `allowed`.',
  },
  UNAUTHORIZED: {
    title: 'Unauthorized',
    meaning: 'The API key is missing, malformed, unknown or revoked.',
    action:
      'Send `Authorization: Bearer <key>` with a key from the dashboard. Revoked keys never work again: create a new one.',
  },
  KEY_EXPIRED: {
    title: 'API key expired',
    meaning:
      'The key has expired: at the expiry chosen when it was created, or at the end of a roll’s grace period.',
    action: 'Use the key that replaced it, or create a new key in the dashboard.',
  },
  FEATURE_NOT_IN_PLAN: {
    title: 'Feature not in plan',
    meaning: 'The account’s plan does not include this feature.',
    action: 'Change to the plan named in `required_plan` (the request was counted).',
  },
  ACCOUNT_DISABLED: {
    title: 'Account disabled',
    meaning:
      'An administrator has disabled the account this key belongs to; its keys are refused and it cannot sign in.',
    action: 'Contact the service’s support to have the account enabled again.',
  },
  FORBIDDEN: {
    title: 'Forbidden',
    meaning: 'A dashboard form was sent without a valid CSRF token (for instance a stale page).',
    action: 'Reload the page and send the form again.',
  },
  NOT_FOUND: {
    title: 'Not found',
    meaning: 'Nothing is at this address: an unknown route, quote id, or key.',
    action: 'Check the path and the id; the OpenAPI document at /docs lists every route.',
  },
  METHOD_NOT_ALLOWED: {
    title: 'Method not allowed',
    meaning: 'The path exists, but not for this HTTP method.',
    action: 'Use one of the methods listed in the `Allow` header.',
  },
  PAYLOAD_TOO_LARGE: {
    title: 'Payload too large',
    meaning: 'The body, or its `data`, is larger than the plan (or the service) allows.',
    action: 'Send less: split the text, or change to a plan with a larger limit (see `limit`).',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    title: 'Unsupported media type',
    meaning: 'The body is not `application/json`.',
    action: 'Send the body as JSON with `Content-Type: application/json`.',
  },
  RATE_LIMITED: {
    title: 'Too many requests',
    meaning:
      'Too many requests from this client address in the current window (a per-address ceiling, the log-in throttles, or too many 401s).',
    action: 'Wait for the number of seconds in `Retry-After`, then slow down.',
  },
  QUOTA_EXCEEDED: {
    title: 'Daily quota exceeded',
    meaning:
      'The key has used every request its plan allows today (UTC). Refused requests are not counted.',
    action: 'Wait until `resets_at` (next UTC midnight, also in `Retry-After`) or change plan.',
  },
  CONCURRENCY_LIMIT: {
    title: 'Too many requests at once',
    meaning: 'The key already has its plan’s number of feature requests running.',
    action: 'Wait for a running request to finish (`Retry-After: 1`); send fewer at once.',
  },
  INTERNAL_ERROR: {
    title: 'Internal server error',
    meaning: 'A bug in the service. Details are logged on the server, never sent.',
    action: 'Retry later; if it persists, report it with the `request_id`.',
  },
  SERVICE_UNAVAILABLE: {
    title: 'Service unavailable',
    meaning: 'A store the request needs (Postgres, or Redis when quotas fail closed) is down.',
    action: 'Retry after the number of seconds in `Retry-After`. The request was not counted.',
  },
  FEATURE_TIMEOUT: {
    title: 'Feature timed out',
    meaning: 'The feature ran past its time budget and was stopped.',
    action: 'Retry after `Retry-After`, or send a smaller text. The request was not counted.',
  },
  OVERLOADED: {
    title: 'Overloaded',
    meaning: 'Every worker thread is busy and the queue is full.',
    action: 'Retry after the number of seconds in `Retry-After`. The request was not counted.',
  },
}
