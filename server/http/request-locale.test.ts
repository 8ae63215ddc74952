import { describe, expect, it } from 'vitest'
import { requestedLocale } from './request-locale.ts'

describe('the language a request asks for', () => {
  it.each([
    ['en', 'en'],
    ['en-GB,en;q=0.9', 'en'],
    ['FR-fr', 'fr'],
    ['fr-FR,fr;q=0.9,en;q=0.8', 'fr'],
    [' en ;q=1', 'en'],
    ['de-DE,en;q=0.5', null],
    ['*', null],
    ['', null],
    [undefined, null],
  ])('%s → %s', (header, locale) => {
    expect(requestedLocale(header)).toBe(locale)
  })
})
