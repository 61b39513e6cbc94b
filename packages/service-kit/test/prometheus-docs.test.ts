import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

// docs/prometheus holds a scrape configuration and alert rules. promtool is not available here:
// the files are parsed as YAML and held to the shapes Prometheus reads, and the metrics the
// rules name are ones the services export.
const docs = new URL('../../../docs/prometheus/', import.meta.url)
const read = (name: string) => parse(readFileSync(new URL(name, docs), 'utf8'), { strict: true })

/** Every metric the services export that the rules may use (service-kit and data-api). */
const EXPORTED = [
  'http_request_duration_seconds_count',
  'dependency_up',
  'redis_connection_up',
  'quota_decisions_total',
  'nodejs_eventloop_lag_p99_seconds',
  'pg_pool_connections',
]

interface Rule {
  alert: string
  expr: string
  for: string
  labels: { severity: string }
  annotations: { summary: string; description: string }
}

describe('docs/prometheus', () => {
  it('prometheus.yml scrapes both services and loads the rules', () => {
    const config = read('prometheus.yml')
    expect(config.rule_files).toEqual(['alerts.yml'])
    const jobs = config.scrape_configs as { job_name: string; metrics_path: string }[]
    expect(jobs.map((job) => job.job_name)).toEqual(['quotes', 'data-api'])
    for (const job of jobs) expect(job.metrics_path).toBe('/metrics')
  })

  it('alerts.yml: error ratio, quota store down and event-loop delay, well formed', () => {
    const rules = (read('alerts.yml').groups as { rules: Rule[] }[]).flatMap((g) => g.rules)
    expect(rules.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining(['HighErrorRatio', 'QuotaStoreDown', 'EventLoopDelayHigh']),
    )
    for (const rule of rules) {
      expect(rule.alert).toMatch(/^[A-Z][A-Za-z]+$/)
      expect(rule.for).toMatch(/^\d+[smh]$/)
      expect(['page', 'warning']).toContain(rule.labels.severity)
      expect(rule.annotations.summary.length).toBeGreaterThan(10)
      const names = rule.expr.match(/\b[a-z_][a-z0-9_]*(?=[{[\s]|$)/g) ?? []
      const metrics = names.filter((name) => name.includes('_') && !['sum', 'rate'].includes(name))
      expect(metrics.length, rule.alert).toBeGreaterThan(0)
      for (const metric of metrics) expect(EXPORTED, `${rule.alert}: ${metric}`).toContain(metric)
    }
  })
})
