import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { HealthSchema, LivenessSchema } from '../../../contract/health.ts'
import { createTestApp, setupTestApp } from '../../../tests/server/harness.ts'
import { statementsOf } from '../../../tests/server/statement-count.ts'

const t = setupTestApp()

describe('GET /api/health', () => {
  it('answers 200 with the database state and latency', async () => {
    const response = await t.get('/api/health')
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(v.safeParse(HealthSchema, body).success).toBe(true)
    expect(body).toMatchObject({
      status: 'ok',
      version: 'test',
      database: { driver: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', state: 'up' },
    })
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0)
  })

  it('answers 503 degraded when the database does not answer', async () => {
    const down = await createTestApp({
      database: { ...t.database, ping: () => Promise.reject(new Error('connection refused')) },
    })
    try {
      const response = await down.get('/api/health')
      expect(response.status).toBe(503)
      expect(await response.json()).toMatchObject({
        status: 'degraded',
        database: { state: 'down', latencyMs: null },
      })
    } finally {
      await down.close()
    }
  })
})

describe('GET /api/health/live', () => {
  it('answers 200 without asking the database, even when it is down', async () => {
    const down = await createTestApp({
      database: { ...t.database, ping: () => Promise.reject(new Error('connection refused')) },
    })
    try {
      const { result, statements } = await statementsOf(() => down.get('/api/health/live'))
      expect(result.status).toBe(200)
      expect(result.headers.get('cache-control')).toBe('no-store')
      expect(v.parse(LivenessSchema, await result.json())).toEqual({ status: 'ok', version: 'test' })
      expect(statements).toEqual([])
    } finally {
      await down.close()
    }
  })
})
