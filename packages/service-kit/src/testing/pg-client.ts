import pg from 'pg'

/** Runs `fn` on a new Postgres client, always ended afterwards. */
export async function withPgClient<T>(
  config: string | pg.ClientConfig,
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client(typeof config === 'string' ? { connectionString: config } : config)
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** The rows of one query, on a client of its own. */
export const queryRows = <R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> =>
  withPgClient(url, async (client) => (await client.query<R>(text)).rows)
