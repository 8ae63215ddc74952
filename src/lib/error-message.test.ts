import { i18n } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../contract/errors.ts'
import { ApiError } from './api.ts'
import { errorMessage } from './error-message.ts'
import { activateLocale } from './i18n.ts'
import { refusalMessage } from './refusal-message.ts'

const refused = (status: number, code: string, message = 'English text from the server') =>
  new ApiError(status, code, message)

describe('errorMessage', () => {
  it.each([
    [
      'no answer at all',
      new ApiError(0, 'network_error', ''),
      'The server could not be reached: check the connection and try again.',
    ],
    [
      'a refused sign-in attempt count',
      refused(429, ErrorCode.rateLimited),
      'Too many attempts: wait a moment and try again.',
    ],
    ['an ended session', refused(401, ErrorCode.unauthenticated), 'Your session has ended: sign in again.'],
    ['a role without the permission', refused(403, ErrorCode.forbidden), 'Your role does not allow this.'],
    [
      'something deleted meanwhile',
      refused(404, ErrorCode.notFound),
      'It no longer exists: it may have been deleted meanwhile.',
    ],
    [
      'refused fields',
      refused(400, ErrorCode.validation),
      'Some of what was entered was not accepted: check the fields and try again.',
    ],
    [
      'an order that moved on',
      refused(409, ErrorCode.invalidTransition),
      'The order has moved on meanwhile: reload the page to see its status.',
    ],
    [
      'a stale price',
      refused(409, ErrorCode.priceMismatch),
      'A price has changed: check the new amount and try again.',
    ],
    ['an empty cart', refused(409, ErrorCode.cartEmpty), 'The cart is empty.'],
    [
      'a stocktake closed while a phone still has scans to send',
      refused(409, ErrorCode.stocktakeScansUnsent),
      'A phone still has scans of this stocktake to send: close it once they have arrived.',
    ],
    [
      'a scanned label that names no hook',
      refused(400, ErrorCode.notAHookLabel),
      "That is not the label of one of the organization's hooks.",
    ],
    [
      'no organization selected',
      refused(409, ErrorCode.noOrganizationSelected),
      'Select an organization first.',
    ],
    [
      'a server failure with any code',
      refused(503, 'whatever'),
      'The server had a problem: try again in a moment.',
    ],
  ])('explains %s', async (_, error, text) => {
    await activateLocale('en')
    expect(errorMessage(error, i18n)).toBe(text)
  })

  it('says it in French on the French pages', async () => {
    await activateLocale('fr')
    expect(errorMessage(refused(403, ErrorCode.forbidden), i18n)).toBe('Votre rôle ne le permet pas.')
    expect(errorMessage(new ApiError(0, 'network_error', ''), i18n)).toBe(
      'Le serveur est injoignable : vérifiez la connexion et réessayez.',
    )
  })

  it.each([
    ErrorCode.transferOverlap,
    ErrorCode.transferAllowanceExceeded,
    ErrorCode.subscriptionRequired,
    ErrorCode.pickupRefused,
  ])('gives the server’s own words for %s, which it writes in the reader’s language', async (code) => {
    await activateLocale('fr')
    expect(errorMessage(refused(409, code, 'Ce trousseau est déjà prêté sur ces dates.'), i18n)).toBe(
      'Ce trousseau est déjà prêté sur ces dates.',
    )
    expect(refusalMessage(refused(409, code, 'Ce trousseau est déjà prêté.'), 'repli')).toBe(
      'Ce trousseau est déjà prêté.',
    )
  })

  it('says nothing it does not know: an unknown refusal, or an error that is not an API answer', async () => {
    await activateLocale('en')
    expect(errorMessage(refused(409, 'some_new_code'), i18n)).toBeUndefined()
    expect(errorMessage(new TypeError('boom'), i18n)).toBeUndefined()
    expect(refusalMessage(refused(409, ErrorCode.conflict), 'The fallback.')).toBe('The fallback.')
  })
})
