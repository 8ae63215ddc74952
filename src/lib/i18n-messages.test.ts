import { i18n } from '@lingui/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { addedMessages, addMessages } from './i18n-messages.ts'

describe('translations added by the modules of the build', () => {
  // The language tests/setup-web.ts sets for the other tests.
  afterEach(() => i18n.activate('en'))

  it("reach the active catalog at once, without Lingui's change event (no render of the whole app)", () => {
    i18n.loadAndActivate({ locale: 'fr', messages: addedMessages.fr })
    const changed = vi.fn()
    const stop = i18n.on('change', changed)
    addMessages({ fr: { zzTest1: ['Clé rendue'] }, en: { zzTest1: ['Key returned'] } })
    stop()
    expect(i18n._('zzTest1')).toBe('Clé rendue')
    expect(changed).not.toHaveBeenCalled()
  })

  it('keep the other language for when the page switches to it', () => {
    i18n.loadAndActivate({ locale: 'fr', messages: addedMessages.fr })
    addMessages({ fr: { zzTest2: ['Vos trousseaux'] }, en: { zzTest2: ['Your keychains'] } })
    i18n.loadAndActivate({ locale: 'en', messages: addedMessages.en })
    expect(i18n._('zzTest2')).toBe('Your keychains')
  })
})
