import { DATA_API_URL, QUOTES_URL } from './env.js'

/**
 * Fails fast, with one clear message, when the stack under test is not running (instead of
 * every test failing with ECONNREFUSED).
 */
export default async function checkStackIsUp(): Promise<void> {
  const down: string[] = []
  for (const [name, url] of [
    ['quotes (QUOTES_URL)', QUOTES_URL],
    ['data-api (DATA_API_URL)', DATA_API_URL],
  ] as const) {
    try {
      const res = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(5_000) })
      if (res.status !== 200) down.push(`${name} at ${url}: /ready answered ${res.status}`)
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error)
      down.push(`${name} at ${url}: ${cause}`)
    }
  }
  if (down.length > 0) {
    throw new Error(
      `The stack under test is not ready:\n  ${down.join('\n  ')}\n` +
        'Start both services (pnpm start, or docker compose up) or run `pnpm test:e2e:builds`, ' +
        'which builds and starts them on fresh stores.',
    )
  }
}
