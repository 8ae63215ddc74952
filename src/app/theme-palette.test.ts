import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SOURCE = resolve('src')
const SHADE = /\b(?:slate|red|amber|green|emerald|sky|brand)-(?:50|[1-9]00|950)\b/g

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

describe('the dark palette', () => {
  const styles = readFileSync(join(SOURCE, 'styles.css'), 'utf8')
  const dark = styles.slice(styles.indexOf('html.dark {'), styles.indexOf('}', styles.indexOf('html.dark {')))

  it('turns over every shade the screens use (a shade without its dark value would stay light)', () => {
    const used = new Set(sourceFiles(SOURCE).flatMap((file) => readFileSync(file, 'utf8').match(SHADE) ?? []))
    expect(used.size).toBeGreaterThan(20)
    const missing = [...used].filter((shade) => !dark.includes(`--color-${shade}:`)).sort()
    expect(missing).toEqual([])
    expect(dark).toContain('--color-white:')
  })

  it('leaves print light', () => {
    expect(styles).toMatch(/@media screen \{\s*html\.dark \{/)
  })
})
