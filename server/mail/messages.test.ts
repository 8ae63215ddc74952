import { describe, expect, it } from 'vitest'
import { LOCALES } from '../../contract/locale.ts'
import { translator } from '../i18n/translator.ts'
import { pickupRefusalMessages, transferErrorMessages } from '../modules/transfers/errors.ts'
import { foundReportMessages } from './found-report-mail.ts'
import { invitationMessages, roleNames } from './invitation-mail.ts'
import { memberLeftMessages } from './member-left-mail.ts'
import { signInMessages } from './messages.ts'
import { transferMessages } from './transfer-mail.ts'

const ALL = [
  signInMessages,
  invitationMessages,
  roleNames,
  foundReportMessages,
  memberLeftMessages,
  transferMessages,
  transferErrorMessages,
  pickupRefusalMessages,
].flatMap((group) => Object.values(group))

describe('mail messages', () => {
  it('has a text in every locale for every message, never the bare id', () => {
    for (const locale of LOCALES) {
      for (const descriptor of ALL) {
        const text = translator(locale)._(descriptor)
        expect(text.trim()).not.toBe('')
        expect(text).not.toBe(descriptor.id)
        if (locale === 'fr' && descriptor.id !== 'mail.role.contact')
          expect(text).not.toBe(descriptor.message)
      }
    }
  })

  it('speaks French and English', () => {
    expect(translator('fr')._(signInMessages.subject)).toBe('Votre connexion à Trousseau')
    expect(translator('en')._(signInMessages.subject)).toBe('Your Trousseau sign-in')
    expect(translator('fr')._(signInMessages.validity)).toContain('10 minutes')
    expect(translator('en')._(signInMessages.validity)).toContain('10 minutes')
  })
})
