import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { makeTags, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { createTestApp } from '../../../tests/server/harness.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { escapeLabel, LATENCY_BUCKETS, RequestMetrics } from './registry.ts'

const TOKEN = 'metrics-token-metrics-token-0123456789'
const t = await createTestApp({ config: { metricsToken: TOKEN } })
afterAll(() => t.close())

const scrape = async () => {
  const response = await t.get('/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  return response.text()
}

/** The value of the sample named exactly `series` (name and labels), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('GET /api/metrics', () => {
  it('counts requests by route pattern and status, with a latency histogram', async () => {
    const before = await scrape()
    const ready = 'method="GET",route="/api/health",status="200"'
    const already = sample(before, `trousseau_http_requests_total{${ready}}`) ?? 0
    for (let i = 0; i < 3; i += 1) expect((await t.get('/api/health')).status).toBe(200)
    // Two different ids, one route pattern: one series.
    for (const id of [randomUUID(), randomUUID()])
      expect((await t.get(`/api/keychains/${id}`)).status).toBe(401)

    const text = await scrape()
    expect(sample(text, `trousseau_http_requests_total{${ready}}`)).toBe(already + 3)
    expect(sample(text, `trousseau_http_request_duration_seconds_count{${ready}}`)).toBe(already + 3)
    expect(sample(text, `trousseau_http_request_duration_seconds_bucket{${ready},le="+Inf"}`)).toBe(
      already + 3,
    )
    expect(sample(text, `trousseau_http_request_duration_seconds_sum{${ready}}`)).toBeGreaterThan(0)
    const keychain = 'method="GET",route="/api/keychains/:id",status="401"'
    expect(sample(text, `trousseau_http_requests_total{${keychain}}`)).toBe(2)
    expect(text).not.toMatch(/route="\/api\/keychains\/[0-9a-f]{8}-/)
    expect(text).toContain('# TYPE trousseau_http_request_duration_seconds histogram')
  })

  it('counts the requests answered from an earlier answer stored under their Idempotency-Key', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Metrics')
    const [tag] = await makeTags(t, organization.id, 1, 'MET')
    const { cookie } = admin
    const key = randomUUID()
    const answers = []
    for (let i = 0; i < 3; i += 1) {
      answers.push(
        await t.post('/api/scans', {
          cookie,
          json: { value: tag!.code },
          headers: { 'idempotency-key': key },
        }),
      )
    }
    expect(answers.map((answer) => answer.headers.get('idempotent-replayed'))).toEqual([null, 'true', 'true'])
    const text = await scrape()
    expect(sample(text, 'trousseau_idempotent_replays_total{method="POST",route="/api/scans"}')).toBe(2)
    expect(sample(text, 'trousseau_http_requests_total{method="POST",route="/api/scans",status="201"}')).toBe(
      3,
    )
  })

  it('shows the job queue depth by kind and state', async () => {
    const now = t.clock.now()
    await enqueueJobs(t.database.db, [
      { kind: 'metrics.test', payload: {}, runAt: now, now },
      { kind: 'metrics.test', payload: {}, runAt: now, now },
      { kind: 'metrics.test', payload: {}, runAt: new Date(now.getTime() + 3_600_000), now },
    ])
    const text = await scrape()
    expect(sample(text, 'trousseau_job_queue_depth{kind="metrics.test",state="due"}')).toBe(2)
    expect(sample(text, 'trousseau_job_queue_depth{kind="metrics.test",state="scheduled"}')).toBe(1)
    expect(sample(text, 'trousseau_job_queue_depth{kind="metrics.test",state="running"}')).toBe(0)
    expect(sample(text, 'trousseau_jobs_failed{kind="metrics.test"}')).toBe(0)
  })

  it('answers 401 without the token or with another one, and 404 when METRICS_TOKEN is unset', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const response = await t.get('/api/metrics', { headers: authorization ? { authorization } : {} })
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"')
      expect(await response.json()).toMatchObject({ error: { code: 'unauthenticated' } })
    }
    const off = await createTestApp({ database: t.database })
    try {
      const response = await off.get('/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ error: { code: 'not_found' } })
    } finally {
      await off.close()
    }
  })
})

describe('RequestMetrics', () => {
  it('puts each duration in its bucket, cumulated in the text', () => {
    const metrics = new RequestMetrics()
    metrics.observe('GET', '/api/x', 200, 0.004, false)
    metrics.observe('GET', '/api/x', 200, 0.005, false)
    metrics.observe('GET', '/api/x', 200, 0.3, true)
    metrics.observe('GET', '/api/x', 200, 60, true)
    const text = metrics.render()
    const labels = 'method="GET",route="/api/x",status="200"'
    const bucket = (le: string) =>
      sample(text, `trousseau_http_request_duration_seconds_bucket{${labels},le="${le}"}`)
    expect(bucket('0.005')).toBe(2)
    expect(bucket('0.25')).toBe(2)
    expect(bucket('0.5')).toBe(3)
    expect(bucket(String(LATENCY_BUCKETS.at(-1)))).toBe(3)
    expect(bucket('+Inf')).toBe(4)
    expect(sample(text, `trousseau_http_request_duration_seconds_sum{${labels}}`)).toBeCloseTo(60.309, 6)
    expect(sample(text, 'trousseau_idempotent_replays_total{method="GET",route="/api/x"}')).toBe(2)
  })

  it('escapes label values', () => {
    expect(escapeLabel('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd')
  })
})
