import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../tests/e2e/harness.ts'

let dataDir = ''
let server: ChildProcess | null = null
let baseUrl = ''

beforeAll(async () => {
  const build = spawnSync(process.execPath, ['scripts/build-server.ts'], { encoding: 'utf8' })
  expect(build.status, build.stderr).toBe(0)
  dataDir = await mkdtemp(join(tmpdir(), 'trousseau-bundle-'))
  const port = await freePort()
  baseUrl = `http://127.0.0.1:${port}`
  server = spawn(process.execPath, ['dist-server/server.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      STATIC_DIR: join(dataDir, 'no-build'),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  // Up to 40 s: a fresh PGlite data directory takes that long on a busy two-core machine.
  for (let attempt = 0; attempt < 400; attempt += 1) {
    if (
      await fetch(`${baseUrl}/api/health/live`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the bundled server did not start')
})

afterAll(async () => {
  // The server closes PGlite on SIGTERM: remove its folder only once it has exited.
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  }
  await rm(dataDir, { recursive: true, force: true })
})

describe('the bundled server (dist-server/server.mjs, what npm start runs)', () => {
  it('finds its migrations, catalogs and package.json from where it is, on the embedded database', async () => {
    const health = await fetch(`${baseUrl}/api/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({
      status: 'ok',
      version: expect.any(String),
      database: { driver: 'pglite', state: 'up' },
    })
    // A sign-in mail is translated from locales/<locale>/server.po and written to the outbox.
    const port = new URL(baseUrl).port
    const sent = await fetch(`${baseUrl}/api/email-tokens`, {
      method: 'POST',
      headers: { origin: `http://localhost:${port}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bundle@example.test', locale: 'en' }),
    })
    expect(sent.status).toBe(202)
    expect(await readdir(join(dataDir, 'outbox'))).toHaveLength(1)
  })
})
