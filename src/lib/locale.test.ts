import { describe, expect, it } from 'vitest'
import { localeOfPath, readLocaleCookie, swapLocaleInPath } from './locale.ts'
import { localizedHref, safeRedirect } from './paths.ts'

describe('locale paths', () => {
  it('reads English under /en and French everywhere else', () => {
    expect(localeOfPath('/en')).toBe('en')
    expect(localeOfPath('/en/app')).toBe('en')
    expect(localeOfPath('/english')).toBe('fr')
    expect(localeOfPath('/app/profile')).toBe('fr')
  })

  it('swaps the language of the same page', () => {
    expect(swapLocaleInPath('/app/profile', 'en')).toBe('/en/app/profile')
    expect(swapLocaleInPath('/en/app/profile', 'fr')).toBe('/app/profile')
    expect(swapLocaleInPath('/', 'en')).toBe('/en/')
    expect(swapLocaleInPath('/en', 'fr')).toBe('/')
    expect(swapLocaleInPath('/en/', 'fr')).toBe('/')
    expect(swapLocaleInPath('/app', 'fr')).toBe('/app')
  })

  it('builds localized links', () => {
    expect(localizedHref('fr', '/app')).toBe('/app')
    expect(localizedHref('en', '/app')).toBe('/en/app')
    expect(localizedHref('en', '/')).toBe('/en/')
  })

  it('reads the locale cookie and ignores unknown values', () => {
    expect(readLocaleCookie('a=1; locale=en; b=2')).toBe('en')
    expect(readLocaleCookie('locale=de')).toBeNull()
    expect(readLocaleCookie('')).toBeNull()
  })

  it('keeps only same-site redirect targets', () => {
    expect(safeRedirect('/en/app/profile?x=1')).toBe('/en/app/profile?x=1')
    expect(safeRedirect('//evil.example')).toBeNull()
    expect(safeRedirect('https://evil.example')).toBeNull()
    expect(safeRedirect('/\\evil.example')).toBeNull()
    expect(safeRedirect('/\t/evil.example')).toBeNull()
    expect(safeRedirect('/app\n')).toBeNull()
    expect(safeRedirect('/sign-in')).toBeNull()
    expect(safeRedirect('/application')).toBeNull()
    expect(safeRedirect('/app')).toBe('/app')
    expect(safeRedirect('/tags')).toBe('/tags')
    expect(safeRedirect('/en/app?x=1')).toBe('/en/app?x=1')
    expect(safeRedirect(undefined)).toBeNull()
  })
})
