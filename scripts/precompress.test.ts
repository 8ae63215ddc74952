import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { compressedVariants, isPrecompressible, MIN_SIZE, precompressDir } from './precompress.ts'

/** Text that compresses well, `size` bytes long. */
const text = (size: number, seed = 'const value = "Trousseau";\n') =>
  seed.repeat(Math.ceil(size / seed.length)).slice(0, size)

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trousseau-precompress-'))
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function build(files: Record<string, string | Uint8Array>) {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true })
    await writeFile(join(dir, name), content)
  }
}

const listing = async () => (await readdir(dir, { recursive: true })).map(String).sort()

describe('precompress', () => {
  it('compresses text formats only, never images', () => {
    for (const file of [
      'assets/index-3f2a9c.js',
      'x.mjs',
      'assets/a.css',
      'pages/en/sign-in.html',
      'version.json',
      'favicon.svg',
      'manifest.webmanifest',
      'robots.txt',
      'sitemap.xml',
      'assets/a.js.map',
      'INDEX.HTML',
    ])
      expect(isPrecompressible(file), file).toBe(true)
    for (const file of [
      'icons/icon-192.png',
      'a.jpg',
      'a.webp',
      'a.avif',
      'a.woff2',
      'a.ico',
      'a.js.br',
      'a.js.gz',
    ])
      expect(isPrecompressible(file), file).toBe(false)
  })

  it('makes brotli and gzip variants that decompress to the original, none under 512 bytes', async () => {
    const content = Buffer.from(text(4000))
    const variants = await compressedVariants(content)
    expect(brotliDecompressSync(variants.br as Buffer)).toEqual(content)
    expect(gunzipSync(variants.gzip as Buffer)).toEqual(content)
    expect((variants.br as Buffer).length).toBeLessThan(content.length)
    expect(await compressedVariants(Buffer.from(text(MIN_SIZE - 1)))).toEqual({})
  })

  it('skips a variant that is not smaller than the original', async () => {
    // Random bytes do not compress: each variant would be its framing longer than the original.
    const incompressible = Buffer.from(Array.from({ length: 600 }, () => Math.floor(Math.random() * 256)))
    expect(await compressedVariants(incompressible)).toEqual({})
  })

  it('writes .br and .gz next to every text file of the build, in subfolders too, and nothing else', async () => {
    const png = Buffer.alloc(4096, 7)
    await build({
      'index.html': text(2000, '<div class="x">Trousseau</div>\n'),
      'pages/en/sign-in.html': text(3000, '<p>Sign in</p>\n'),
      'assets/index-3f2a9c.js': text(9000),
      'assets/index-3f2a9c.css': text(1500, 'body{margin:0}\n'),
      'sw.js': text(8000),
      'workbox-9c191d2f.js': text(15000),
      'manifest.webmanifest': text(700, '{"name":"Trousseau"}'),
      'version.json': '{"version":"1"}',
      'robots.txt': 'User-agent: *',
      'icons/icon-192.png': png,
      '.vite/manifest.json': text(2000, '{"index.html":{}}'),
    })
    const results = await precompressDir(dir)
    expect(results.map((result) => result.file)).toEqual([
      'assets/index-3f2a9c.css',
      'assets/index-3f2a9c.js',
      'index.html',
      'manifest.webmanifest',
      'pages/en/sign-in.html',
      'robots.txt',
      'sw.js',
      'version.json',
      'workbox-9c191d2f.js',
    ])
    expect(await listing()).toEqual(
      [
        '.vite',
        '.vite/manifest.json',
        'assets',
        'icons',
        'icons/icon-192.png',
        'pages',
        'pages/en',
        'robots.txt',
        'version.json',
        ...[
          'assets/index-3f2a9c.css',
          'assets/index-3f2a9c.js',
          'index.html',
          'manifest.webmanifest',
          'pages/en/sign-in.html',
          'sw.js',
          'workbox-9c191d2f.js',
        ].flatMap((file) => [file, `${file}.br`, `${file}.gz`]),
      ].sort(),
    )
    const original = await readFile(join(dir, 'sw.js'))
    expect(brotliDecompressSync(await readFile(join(dir, 'sw.js.br')))).toEqual(original)
    expect(gunzipSync(await readFile(join(dir, 'sw.js.gz')))).toEqual(original)
  })

  it('gives the same files when run twice, and drops variants the new content no longer earns', async () => {
    await build({ 'index.html': text(2000), 'assets/a.js': text(5000) })
    await precompressDir(dir)
    const first = await Promise.all(
      ['index.html.br', 'index.html.gz'].map((file) => readFile(join(dir, file))),
    )
    await precompressDir(dir)
    const second = await Promise.all(
      ['index.html.br', 'index.html.gz'].map((file) => readFile(join(dir, file))),
    )
    expect(second).toEqual(first)

    // A rebuild that shrinks a file under the threshold must not leave the old variants behind.
    await writeFile(join(dir, 'index.html'), '<!doctype html>')
    await precompressDir(dir)
    expect(await listing()).toEqual([
      'assets',
      'assets/a.js',
      'assets/a.js.br',
      'assets/a.js.gz',
      'index.html',
    ])
  })

  it('overwrites variants older than their file', async () => {
    await build({ 'index.html': text(2000) })
    await precompressDir(dir)
    const old = new Date(Date.now() - 60_000)
    await utimes(join(dir, 'index.html.br'), old, old)
    await writeFile(join(dir, 'index.html'), text(3000, '<main>new</main>\n'))
    await precompressDir(dir)
    expect(String(brotliDecompressSync(await readFile(join(dir, 'index.html.br'))))).toBe(
      text(3000, '<main>new</main>\n'),
    )
    expect((await stat(join(dir, 'index.html.br'))).mtimeMs).toBeGreaterThanOrEqual(
      (await stat(join(dir, 'index.html'))).mtimeMs,
    )
  })
})
