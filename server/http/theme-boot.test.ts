import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { THEME_BOOT_SCRIPT } from '../../contract/theme.ts'
import { contentSecurityPolicy, THEME_BOOT_SCRIPT_HASH } from './security-headers.ts'

describe('the theme script before the first paint', () => {
  it.each(['index.html', 'public.html'])('is inline in %s exactly as the policy hashes it', (page) => {
    const html = readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8')
    const inline = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((match) => match[1])
    expect(inline).toEqual([THEME_BOOT_SCRIPT])
  })

  it('is the only inline script the policy allows', () => {
    const digest = createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64')
    expect(THEME_BOOT_SCRIPT_HASH).toBe(`'sha256-${digest}'`)
    const scripts = contentSecurityPolicy({ corsOrigins: [] })
      .split('; ')
      .find((directive) => directive.startsWith('script-src'))
    expect(scripts).toBe(`script-src 'self' 'sha256-${digest}'`)
    expect(scripts).not.toContain('unsafe-inline')
  })
})
