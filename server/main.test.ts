import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TestClock } from '../tests/server/clock.ts'
import { loadConfig } from './config.ts'
import { createLogger } from './logger.ts'
import { startServer } from './main.ts'

describe('startServer', () => {
  it('listens on a free port, serves the API, writes sign-in mail to the outbox and shuts down', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-main-'))
    const config = { ...loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', NODE_ENV: 'test' }), port: 0 }
    const running = await startServer({ ...config, publicUrl: 'http://localhost:0' }, createLogger('silent'))
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const health = await fetch(`${running.url}/api/health`)
      expect(health.status).toBe(200)
      expect((await health.json()).database.driver).toBe('pglite')

      // Liveness is answered before the app (no request log line, no middleware), with the app's answer.
      for (const path of ['/api/health/live', '/api/health/live?probe=1']) {
        const live = await fetch(`${running.url}${path}`)
        expect(live.status).toBe(200)
        expect(live.headers.get('content-type')).toBe('application/json')
        expect(live.headers.get('cache-control')).toBe('no-store')
        expect(await live.json()).toEqual({ status: 'ok', version: running.deps.version })
      }
      expect((await fetch(`${running.url}/api/health/lively`)).status).toBe(404)
      expect((await fetch(`${running.url}/api/health/live`, { method: 'POST' })).status).not.toBe(200)

      const port = new URL(running.url).port
      const sent = await fetch(`${running.url}/api/email-tokens`, {
        method: 'POST',
        headers: { origin: `http://localhost:${port}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'dev@example.test' }),
      })
      expect(sent.status).toBe(202)
      expect(await readdir(join(dataDir, 'outbox'))).toHaveLength(1)
      expect(await readdir(dataDir)).toEqual(expect.arrayContaining(['pglite', 'secret.key', 'outbox']))
    } finally {
      await running.close()
      await rm(dataDir, { recursive: true, force: true })
    }
    await expect(fetch(`${running.url}/api/health`)).rejects.toThrow()
  })

  it('takes the clock it is given (browser tests move time)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-main-'))
    const config = { ...loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', NODE_ENV: 'test' }), port: 0 }
    const clock = new TestClock(new Date('2031-06-01T12:00:00Z'))
    const running = await startServer(
      { ...config, publicUrl: 'http://localhost:0' },
      createLogger('silent'),
      {
        clock,
      },
    )
    try {
      expect(running.deps.clock.now().toISOString()).toBe('2031-06-01T12:00:00.000Z')
    } finally {
      await running.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
