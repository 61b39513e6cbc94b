// The OpenAPI document's front matter for the data service: what a client must know beyond the
// schemas.
import type { PlatformOptions } from '@repo/service-kit'

const API_DESCRIPTION = `
Text analysis behind API keys. Sign up and create keys in the dashboard (\`/signup\`), then send
\`Authorization: Bearer <key>\` with every request.

**Plans and quotas.** FREE: 1,000 requests per key per UTC day, texts up to 10 KB, \`stats\` and
\`sentiment\`. PRO: 10,000, 100 KB, adds \`keywords\` and \`language\`. ENTERPRISE: 100,000, 1 MB,
adds \`entities\`, \`summary\` and \`redact\`. Every authenticated request counts (also 400, 403,
413); refused ones (401, 429) and the service's own failures (503) do not. Counts reset at
midnight UTC. A plan change applies to the next request.

**Limits.** A key may have at most 2 (FREE), 4 (PRO) or 8 (ENTERPRISE) feature requests
(\`POST\`) running at once on an instance; one more is refused with 429 \`CONCURRENCY_LIMIT\` and
\`Retry-After: 1\`. A body may be at most twice the plan's \`data\` limit plus 64 KB: a larger
\`Content-Length\` is refused with 413 before the body is read, and a chunked body is cut off as it
passes that size; \`data\` itself is then held to the plan's limit exactly. Features run in a pool
of worker threads (one per core) with a bounded queue: a call that runs longer than its time
budget (5 s by default) is stopped and answered 503 \`FEATURE_TIMEOUT\`; when every thread is busy
and the queue is full, or a call waited a whole budget for a thread, 503 \`OVERLOADED\`; both with
\`Retry-After\`, neither counted. A client address (IPv6: its /64) that gets 100 401s in a minute
is answered 429 \`RATE_LIMITED\` for the rest of that minute, unless it sends a key the instance
already knows.

**Headers.** Authenticated responses carry \`RateLimit-Policy: "daily";q=<limit>;w=86400\` and
\`RateLimit: "daily";r=<remaining>;t=<seconds to reset>\`; a 429 adds \`Retry-After\`. Every
response carries \`X-Request-Id\` and \`Cache-Control: no-store\`.

**Errors** are RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`:
INVALID_REQUEST and UNKNOWN_FEATURE (400), UNAUTHORIZED and KEY_EXPIRED (401, with
\`WWW-Authenticate: Bearer\`),
FEATURE_NOT_IN_PLAN and ACCOUNT_DISABLED (403), NOT_FOUND (404), METHOD_NOT_ALLOWED (405), PAYLOAD_TOO_LARGE (413),
UNSUPPORTED_MEDIA_TYPE (415), QUOTA_EXCEEDED, CONCURRENCY_LIMIT and RATE_LIMITED (429),
INTERNAL_ERROR (500), SERVICE_UNAVAILABLE, FEATURE_TIMEOUT and OVERLOADED (503).
Each problem's \`type\` (\`/problems/quota-exceeded\`) is a page on this service saying what the
code means and what to do; \`/problems\` lists them all.

**Keys** may expire (chosen at creation, or at the end of a roll's grace period): an expired key
answers 401 \`KEY_EXPIRED\`. \`GET /api/v1/usage?days=N\` gives the key's own daily counts (it is
counted too).

**Availability.** If Redis cannot count a request the service keeps serving (fail open) unless
configured to refuse (503). If Postgres is down, requests that need it (an unknown key, the
dashboard) answer 503 with \`Retry-After\`.
`.trim()

export const OPEN_API: PlatformOptions['openApi'] = {
  title: 'Data API',
  description: API_DESCRIPTION,
  tags: [{ name: 'data', description: 'The keyed API' }],
  components: {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: sk_…' },
    },
  },
}
