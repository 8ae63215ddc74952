import { describe, expect, it } from 'vitest'
import { localizedHref, safeRedirect } from './paths.ts'

describe('links', () => {
  it('put English pages under /en and leave French ones at the root', () => {
    expect(localizedHref('fr', '/app/keychains/k1')).toBe('/app/keychains/k1')
    expect(localizedHref('en', '/app/keychains/k1')).toBe('/en/app/keychains/k1')
    expect(localizedHref('en', '/')).toBe('/en/')
    expect(localizedHref('en', '/app/transfers?status=SCHEDULED')).toBe('/en/app/transfers?status=SCHEDULED')
  })

  it('name only pages the route tree serves (the type checker refuses the others)', () => {
    // @ts-expect-error: no route serves /app/keychain/$id (the list is /app/keychains)
    expect(localizedHref('fr', '/app/keychain/k1')).toBe('/app/keychain/k1')
    // @ts-expect-error: a page needs its leading slash
    expect(localizedHref('fr', 'app/scan')).toBe('app/scan')
    expect(localizedHref('fr', '/app/organizations/o1/new-order')).toBe('/app/organizations/o1/new-order')
  })

  it('keep a post-sign-in destination only inside the app or the tags', () => {
    expect(safeRedirect('/en/app/keychains/k1')).toBe('/en/app/keychains/k1')
    expect(safeRedirect('/tags/ABC')).toBe('/tags/ABC')
    expect(safeRedirect('https://evil.example/app')).toBeNull()
    expect(safeRedirect('//evil.example/app')).toBeNull()
    expect(safeRedirect('/app\\..\\evil')).toBeNull()
    expect(safeRedirect(42)).toBeNull()
  })
})
