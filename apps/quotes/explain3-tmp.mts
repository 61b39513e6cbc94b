import pg from 'pg'
import { firstMatchesQuery, inlined, PLAN_SETTINGS } from './src/lib/search-query.ts'
const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/bench_quotes_scale', max: 1 })
const terms = ['assoc', 'linus', 'loyal', 'fellow', 'herbert']
const q0 = inlined(firstMatchesQuery('assoc'))
console.log(q0)
const variants: Record<string, (t: string) => string> = {
  current: (t) => inlined(firstMatchesQuery(t)),
  numOnly: (t) => inlined(firstMatchesQuery(t)).replace(/, \(s\.ctid::text::point\)\[0\]::int AS block, \(SELECT[^)]*\) AS blocks/, ''),
  countOnly: (t) => `SELECT count(*) FROM (${inlined(firstMatchesQuery(t)).replace(/, \(s\.ctid::text::point\)\[0\]::int AS block, \(SELECT[^)]*\) AS blocks/, '')}) x`,
}
for (let round = 0; round < 3; round++) {
  for (const [name, make] of Object.entries(variants)) {
    let total = 0
    for (const t of terms) {
      const res = (await pool.query(`${PLAN_SETTINGS.index}; EXPLAIN (ANALYZE) ${make(t)}`)) as any
      const line = res.at(-1).rows.map((r: any) => r['QUERY PLAN']).find((l: string) => l.startsWith('Execution Time'))
      total += Number(line.match(/([\d.]+) ms/)[1])
    }
    console.log(round, name.padEnd(10), (total / terms.length).toFixed(2), 'ms avg')
  }
}
await pool.end()
