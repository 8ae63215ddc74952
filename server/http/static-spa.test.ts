import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../test/harness.ts'

let staticDir: string
let t: TestApp
const INDEX = '<!doctype html><title>Trousseau</title><div id="root"></div>'
const html = { headers: { accept: 'text/html,application/xhtml+xml' } }

beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'trousseau-dist-'))
  await mkdir(join(staticDir, 'assets'))
  const files: Record<string, string> = {
    'index.html': INDEX,
    'assets/index-3f2a9c.js': 'console.log(1)',
    'assets/index-3f2a9c.css': 'body{}',
    'sw.js': 'self.addEventListener("fetch", () => {})',
    'registerSW.js': '/* register */',
    'version.json': '{"version":"1"}',
    'manifest.webmanifest': '{"name":"Trousseau"}',
    'robots.txt': 'User-agent: *',
    '.vite/manifest.json': '{"index.html":{}}',
    '.env': 'SECRET=1',
  }
  await mkdir(join(staticDir, '.vite'))
  for (const [name, content] of Object.entries(files)) await writeFile(join(staticDir, name), content)
  t = await createTestApp({ config: { nodeEnv: 'production', staticDir } })
})

afterAll(async () => {
  await t.close()
  await rm(staticDir, { recursive: true, force: true })
})

describe('static SPA in production', () => {
  it('serves hashed assets as immutable', async () => {
    const response = await t.get('/assets/index-3f2a9c.js')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(response.headers.get('content-type')).toMatch(/javascript/)
    expect(await response.text()).toBe('console.log(1)')
  })

  it.each(['/', '/index.html', '/sw.js', '/registerSW.js', '/version.json', '/manifest.webmanifest'])(
    'serves %s with no-cache',
    async (path) => {
      const response = await t.get(path)
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('no-cache')
    },
  )

  it('answers any other page a browser asks for with index.html', async () => {
    for (const path of ['/app/keychains', '/en/app/scan', '/tags/ABCDEF', '/nothing-here']) {
      const response = await t.get(path, html)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
      expect(await response.text()).toBe(INDEX)
    }
  })

  it('keeps the token in the query string to the SPA (GET never signs in)', async () => {
    const response = await t.get(`/?token=${'a'.repeat(43)}`, html)
    expect(response.status).toBe(200)
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it('answers index.html for a page path whatever the Accept header, GET and HEAD', async () => {
    for (const accept of ['*/*', 'application/json', '']) {
      const response = await t.get('/app/keychains', { headers: accept ? { accept } : {} })
      expect(response.status, accept).toBe(200)
      expect(await response.text()).toBe(INDEX)
    }
    expect((await t.request('/en/tags/abc', { method: 'HEAD' })).status).toBe(200)
  })

  it('never serves dot-paths, such as the Vite manifest', async () => {
    for (const path of [
      '/.vite/manifest.json',
      '/.env',
      '/%2evite/manifest.json',
      '/.vite',
      '/.well-known/x',
    ]) {
      expect((await t.get(path)).status, path).toBe(404)
      expect((await t.get(path, html)).status, path).toBe(404)
    }
  })

  it('allows the scanner worker built from a blob URL', async () => {
    const csp = (await t.get('/')).headers.get('content-security-policy')
    expect(csp).toContain("worker-src 'self' blob:")
  })

  it('answers a missing asset with 404, not with index.html', async () => {
    expect((await t.get('/assets/index-000000.js', html)).status).toBe(404)
    expect((await t.get('/missing.png', { headers: { accept: 'image/png' } })).status).toBe(404)
  })

  it('refuses paths that climb out of STATIC_DIR', async () => {
    const response = await t.get('/%2e%2e/package.json')
    expect(response.status).toBe(404)
  })

  it('still answers unknown /api paths with JSON 404', async () => {
    const response = await t.get('/api/nope', html)
    expect(response.status).toBe(404)
    expect((await response.json()).error.code).toBe('not_found')
  })

  it('serves nothing outside production', async () => {
    const dev = await createTestApp({ config: { nodeEnv: 'development', staticDir }, database: t.database })
    try {
      expect((await dev.get('/', html)).status).toBe(404)
    } finally {
      await dev.close()
    }
  })
})
