import { i18n } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import { HANDOVER_REFUSALS } from '../../../contract/handover-check.ts'
import { useLocale } from '../../../tests/render.tsx'
import { REFUSAL_TEXTS } from './refusals.ts'

const PHONE_REFUSALS = [
  'not_a_receive_code',
  'device_not_ready',
  'not_for_this_device',
  'no_pending_offer',
  'not_holder',
  'keychain_unknown',
] as const

describe('refusal texts', () => {
  it('say what happened and what to do for every reason of the server and of the phone', () => {
    expect(Object.keys(REFUSAL_TEXTS).sort()).toEqual([...HANDOVER_REFUSALS, ...PHONE_REFUSALS].sort())
  })

  it('exist in both languages', async () => {
    await useLocale('en')
    const english = Object.values(REFUSAL_TEXTS).map(({ what, todo }) => [i18n._(what), i18n._(todo)])
    await useLocale('fr')
    const french = Object.values(REFUSAL_TEXTS).map(({ what, todo }) => [i18n._(what), i18n._(todo)])
    for (const [index, [what, todo]] of english.entries()) {
      expect(what).toMatch(/\w/)
      expect(french[index]?.[0]).not.toBe(what)
      expect(french[index]?.[1]).not.toBe(todo)
    }
    expect(i18n._(REFUSAL_TEXTS.conflict.what)).toBe(
      'Quelqu’un d’autre a reçu ce trousseau en premier : il a changé de mains après le dernier changement que connaissait le téléphone de la personne qui le remet.',
    )
  })
})
