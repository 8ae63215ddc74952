import { describe, expect, it } from 'vitest'
import { DEFERRED, deferredFiles, filesForPage, gzippedKiB } from './check-bundle.ts'

const manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_shared.js'],
    dynamicImports: [
      'node_modules/sw-helper.js',
      'locales/en/messages.po',
      'src/routes/other.tsx?tsr-split=component',
    ],
  },
  'node_modules/sw-helper.js': { file: 'assets/sw-helper.js' },
  'locales/en/messages.po': { file: 'assets/en.js' },
  '_shared.js': { file: 'assets/shared.js' },
  '_heavy.js': { file: 'assets/heavy.js', imports: ['_shared.js'] },
  'locales/fr/messages.po': { file: 'assets/fr.js' },
  'page.tsx?tsr-split=component': { file: 'assets/page.js', imports: ['_heavy.js', 'index.html'] },
  'src/routes/other.tsx?tsr-split=component': { file: 'assets/other.js' },
}

describe('bundle budget', () => {
  it('counts the entry, the French catalog, the page chunks and everything they import, once', () => {
    expect([...filesForPage(manifest, ['page.tsx?tsr-split=component'])].sort()).toEqual([
      'assets/fr.js',
      'assets/heavy.js',
      'assets/index.js',
      'assets/page.js',
      'assets/shared.js',
      'assets/sw-helper.js',
    ])
  })

  it('refuses a page whose chunk is not in the manifest', () => {
    expect(() => filesForPage(manifest, ['gone.tsx'])).toThrow(/no chunk gone.tsx/)
  })

  it('measures gzipped JavaScript only', () => {
    const big = Buffer.from('x'.repeat(100_000))
    const kib = gzippedKiB(['a.js', 'b.css'], () => big)
    expect(kib).toBeGreaterThan(0)
    expect(kib).toBeLessThan(1)
    expect(gzippedKiB(['b.css'], () => big)).toBe(0)
  })

  it('reports the deferred field mode apart: what it loads beyond the page, not counted in the page', () => {
    const withFieldMode = {
      ...manifest,
      'index.html': {
        ...manifest['index.html'],
        dynamicImports: [...manifest['index.html'].dynamicImports, DEFERRED],
      },
      [DEFERRED]: { file: 'assets/field-mode.js', imports: ['_dexie.js', '_shared.js'] },
      '_dexie.js': { file: 'assets/dexie.js' },
    }
    const page = filesForPage(withFieldMode, ['page.tsx?tsr-split=component'])
    expect(page.has('assets/field-mode.js')).toBe(false)
    expect([...deferredFiles(withFieldMode, page)].sort()).toEqual([
      'assets/dexie.js',
      'assets/field-mode.js',
    ])
  })
})
