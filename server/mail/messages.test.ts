import { describe, expect, it } from 'vitest'
import { LOCALES } from '../../contract/locale.ts'
import { messages } from './messages.ts'

describe('mail messages', () => {
  it('has every key, non-empty, in every locale', () => {
    const keys = Object.keys(messages.fr).sort()
    for (const locale of LOCALES) {
      expect(Object.keys(messages[locale]).sort()).toEqual(keys)
      for (const key of keys) expect(messages[locale][key as keyof typeof messages.fr].trim()).not.toBe('')
    }
  })

  it('says the link and code are valid 10 minutes in both languages', () => {
    expect(messages.fr.signInValidity).toContain('10 minutes')
    expect(messages.en.signInValidity).toContain('10 minutes')
  })
})
