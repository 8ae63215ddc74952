import { describe, expect, it } from 'vitest'
import { HealthSchema } from '../../../contract/health.ts'
import { createTestApp, setupTestApp } from '../../test/harness.ts'

const t = setupTestApp()

describe('GET /api/health', () => {
  it('answers 200 with the database state and latency', async () => {
    const response = await t.get('/api/health')
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(() => HealthSchema.entries && body).not.toThrow()
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
