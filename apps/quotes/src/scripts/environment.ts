/** The settings the database commands read, for their --help. */
export const DATABASE_ENVIRONMENT = `Environment:
  DATABASE_URL          default postgres://localhost:5432/quotes
  DATABASE_DIRECT_URL   used instead when set (past a pooler such as PgBouncer)
  EMBEDDED_STORES       auto (default): with no DATABASE_URL and nothing answering, the embedded
                        Postgres in .data/quotes/pglite, as the service uses; off: fail instead`
