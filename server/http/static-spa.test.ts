import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { precompressDir } from '../../scripts/precompress.ts'
import { decodedBody } from '../../tests/server/decoded-body.ts'
import { createTestApp, type TestApp } from '../../tests/server/harness.ts'
import { serveBuildPage } from './static-spa.ts'

let staticDir: string
let t: TestApp
// Long enough (over 512 bytes) for scripts/precompress.ts to give it compressed variants.
const INDEX = `<!doctype html><title>Trousseau</title>${'<link rel="modulepreload" href="/assets/x.js" />'.repeat(20)}<div id="root"></div>`
const SCRIPT =
  'export const keychains = (list) => list.map((keychain) => keychain.name).join(", ");\n'.repeat(40)
const SIGN_IN = `<!doctype html><html lang="en"><main>${'<p>Sign in with your e-mail address.</p>'.repeat(30)}</main>`
const IMMUTABLE = 'public, max-age=31536000, immutable'
const html = { headers: { accept: 'text/html,application/xhtml+xml' } }

beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'trousseau-dist-'))
  await mkdir(join(staticDir, 'assets'))
  const files: Record<string, string> = {
    'index.html': INDEX,
    'assets/index-3f2a9c.js': 'console.log(1)',
    'assets/index-3f2a9c.css': 'body{}',
    'assets/keychains-8b1d4e.js': SCRIPT,
    'assets/stale-5e6f7a.js': SCRIPT,
    'pages/en/sign-in.html': SIGN_IN,
    'sw.js': 'self.addEventListener("fetch", () => {})',
    'registerSW.js': '/* register */',
    'version.json': '{"version":"1"}',
    'manifest.webmanifest': '{"name":"Trousseau"}',
    'robots.txt': 'User-agent: *',
    '.vite/manifest.json': '{"index.html":{}}',
    '.env': 'SECRET=1',
  }
  await mkdir(join(staticDir, '.vite'))
  await mkdir(join(staticDir, 'pages/en'), { recursive: true })
  for (const [name, content] of Object.entries(files)) await writeFile(join(staticDir, name), content)
  await precompressDir(staticDir)
  // Variants left by an earlier build of a file since rewritten: never to be sent.
  const past = new Date(Date.now() - 60_000)
  for (const suffix of ['.br', '.gz'])
    await utimes(join(staticDir, `assets/stale-5e6f7a.js${suffix}`), past, past)
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
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE)
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

/** An HTML document of the build, sent brotli-compressed and revalidated on every load. */
async function expectBrotliPage(response: Response, html: string) {
  expect(response.status).toBe(200)
  expect(response.headers.get('content-encoding')).toBe('br')
  expect(response.headers.get('vary')).toBe('Accept-Encoding')
  expect(response.headers.get('cache-control')).toBe('no-cache')
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(await decodedBody(response)).toBe(html)
}

describe('static SPA content negotiation', () => {
  const asset = '/assets/keychains-8b1d4e.js'

  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['GZIP;q=1.0, identity; q=0.5, *;q=0', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['*', 'br'],
    [undefined, null],
    ['', null],
    ['identity', null],
    ['deflate', null],
    ['br;q=0, gzip;q=0', null],
  ])('answers a hashed asset asked with Accept-Encoding %j: %s', async (acceptEncoding, coding) => {
    const response = await t.get(asset, {
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBe(coding)
    expect(response.headers.get('vary')).toBe('Accept-Encoding')
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE)
    expect(response.headers.get('content-type')).toMatch(/^(application|text)\/javascript/)
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
    const length = Number(response.headers.get('content-length'))
    const text = await decodedBody(response.clone())
    expect(text).toBe(SCRIPT)
    expect((await response.arrayBuffer()).byteLength).toBe(length)
    if (coding) expect(length).toBeLessThan(SCRIPT.length)
  })

  it('answers the index.html fallback compressed, with no-cache', async () => {
    const response = await t.get('/app/keychains', {
      headers: { ...html.headers, 'accept-encoding': 'gzip, deflate, br' },
    })
    await expectBrotliPage(response, INDEX)

    const gzip = await t.get('/en/app/scan', { headers: { 'accept-encoding': 'gzip' } })
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(await decodedBody(gzip)).toBe(INDEX)
    const root = await t.get('/', { headers: { 'accept-encoding': 'br' } })
    expect(root.headers.get('content-encoding')).toBe('br')
    expect(await decodedBody(root)).toBe(INDEX)
  })

  it('gives each variant its own ETag and answers 304 to a matching If-None-Match', async () => {
    const etagFor = async (acceptEncoding: string) =>
      (await t.get(asset, { headers: { 'accept-encoding': acceptEncoding } })).headers.get('etag') as string
    const [br, gzip, identity] = await Promise.all([etagFor('br'), etagFor('gzip'), etagFor('identity')])
    expect(new Set([br, gzip, identity]).size).toBe(3)
    for (const etag of [br, gzip, identity]) expect(etag).toMatch(/^"[^"]+"$/)

    const cached = await t.get(asset, { headers: { 'accept-encoding': 'br', 'if-none-match': br } })
    expect(cached.status).toBe(304)
    expect(await cached.text()).toBe('')
    expect(cached.headers.get('etag')).toBe(br)
    expect(cached.headers.get('vary')).toBe('Accept-Encoding')
    expect(cached.headers.get('cache-control')).toBe(IMMUTABLE)
    expect((await t.get(asset, { headers: { 'if-none-match': `"x", W/${identity}` } })).status).toBe(304)
    // The gzip copy a cache holds is not the brotli answer.
    const other = await t.get(asset, { headers: { 'accept-encoding': 'br', 'if-none-match': gzip } })
    expect(other.status).toBe(200)
    expect(await decodedBody(other)).toBe(SCRIPT)

    const page = await t.get('/app/keychains', { headers: { 'accept-encoding': 'gzip' } })
    const again = await t.get('/app/keychains', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': page.headers.get('etag') as string },
    })
    expect(again.status).toBe(304)
    expect(again.headers.get('cache-control')).toBe('no-cache')
    const lastModified = page.headers.get('last-modified') as string
    expect((await t.get('/app/keychains', { headers: { 'if-modified-since': lastModified } })).status).toBe(
      304,
    )
  })

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await t.get(asset, { headers: { 'accept-encoding': 'gzip' } })
    const head = await t.request(asset, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } })
    expect(head.status).toBe(200)
    for (const name of [
      'content-encoding',
      'content-length',
      'content-type',
      'etag',
      'vary',
      'cache-control',
    ])
      expect(head.headers.get(name), name).toBe(get.headers.get(name))
    expect(await head.text()).toBe('')
  })

  it('never sends variants older than their file, nor a variant by its own name', async () => {
    const stale = await t.get('/assets/stale-5e6f7a.js', { headers: { 'accept-encoding': 'gzip, br' } })
    expect(stale.headers.get('content-encoding')).toBeNull()
    expect(stale.headers.get('vary')).toBe('Accept-Encoding')
    expect(await stale.text()).toBe(SCRIPT)
    for (const path of [`${asset}.br`, `${asset}.gz`, '/index.html.gz'])
      expect((await t.get(path, { headers: { 'accept-encoding': 'gzip, br' } })).status, path).toBe(404)
  })

  it('serves any HTML file of the build for a page path through serveBuildPage', async () => {
    const app = new Hono()
    app.get('*', async (c) => {
      const file = c.req.path === '/en/sign-in' ? 'pages/en/sign-in.html' : c.req.path.slice(1)
      return (await serveBuildPage(c, staticDir, file)) ?? c.text('none', 404)
    })
    const response = await app.request('/en/sign-in', { headers: { 'accept-encoding': 'gzip, br' } })
    await expectBrotliPage(response, SIGN_IN)
    expect((await app.request('/pages/en/missing.html')).status).toBe(404)
    // Never a file outside the root it is given, whatever the relative path says.
    const pages = new Hono()
    pages.get(
      '*',
      async (c) =>
        (await serveBuildPage(c, join(staticDir, 'pages'), '../index.html')) ?? c.text('none', 404),
    )
    expect((await pages.request('/')).status).toBe(404)
  })
})

describe('prerendered public pages', () => {
  const gzip = { 'accept-encoding': 'gzip' }

  it('answers the prerendered page on its path, compressed, with no-cache and Vary on the cookie', async () => {
    const response = await t.app.request('/en/sign-in', { headers: { ...html.headers, ...gzip } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('vary')).toBe('Accept-Encoding, Cookie')
    expect(await decodedBody(response)).toBe(SIGN_IN)
  })

  it('answers the English page on the French address when the locale cookie says English', async () => {
    const response = await t.app.request('/sign-in', { headers: { ...html.headers, cookie: 'locale=en' } })
    expect(await decodedBody(response)).toBe(SIGN_IN)
  })

  it('leaves a sign-in link, and a page the build did not prerender, to the SPA shell', async () => {
    expect(await decodedBody(await t.app.request('/en/sign-in?token=abc', html))).toBe(INDEX)
    // This build has no French sign-in page: the shell answers rather than a 404.
    expect(await decodedBody(await t.app.request('/sign-in', html))).toBe(INDEX)
  })
})
