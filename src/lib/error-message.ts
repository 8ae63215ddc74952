import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { ErrorCode } from '../../contract/errors.ts'
import { ApiError } from './api.ts'
import { TRANSLATED_CODES } from './refusal-message.ts'

/** What each of the contract's codes means for the person who pressed the button. */
const BY_CODE: Partial<Record<string, MessageDescriptor>> = {
  [ErrorCode.validation]: msg`Some of what was entered was not accepted: check the fields and try again.`,
  [ErrorCode.badRequest]: msg`The request was not understood. Reload the page and try again.`,
  [ErrorCode.unauthenticated]: msg`Your session has ended: sign in again.`,
  [ErrorCode.forbidden]: msg`Your role does not allow this.`,
  [ErrorCode.notFound]: msg`It no longer exists: it may have been deleted meanwhile.`,
  [ErrorCode.conflict]: msg`Someone changed it meanwhile: reload the page and try again.`,
  [ErrorCode.memberNamesLocked]: msg`Only an invited member's names and e-mail can be edited.`,
  [ErrorCode.noOrganizationSelected]: msg`Select an organization first.`,
  [ErrorCode.rateLimited]: msg`Too many attempts: wait a moment and try again.`,
  [ErrorCode.priceMismatch]: msg`A price has changed: check the new amount and try again.`,
  [ErrorCode.invalidTransition]: msg`The order has moved on meanwhile: reload the page to see its status.`,
  [ErrorCode.cartEmpty]: msg`The cart is empty.`,
  [ErrorCode.payloadTooLarge]: msg`What was sent is too large.`,
  [ErrorCode.originRejected]: msg`The request came from a page the server does not trust. Reload the page.`,
  [ErrorCode.stocktakeScansUnsent]: msg`A phone still has scans of this stocktake to send: close it once they have arrived.`,
  [ErrorCode.notAHookLabel]: msg`That is not the label of one of the organization's hooks.`,
  [ErrorCode.keychainHeld]: msg`Someone holds this keychain: it goes back on a hook once it is returned.`,
  [ErrorCode.placeInUse]: msg`It is still in use: places under it, keychains living on its hooks, or a stocktake.`,
}

const unreachable = msg`The server could not be reached: check the connection and try again.`
const serverFailed = msg`The server had a problem: try again in a moment.`

/**
 * Why a request failed, in the reader's language: the server's own words where it writes them for the reader
 * (the transfer rules), else the meaning of the contract's error code. Undefined for anything else, where the
 * caller's summary ("The key could not be added.") says all that is known.
 */
export function errorMessage(error: unknown, i18n: I18n): string | undefined {
  if (!(error instanceof ApiError)) return undefined
  if (error.isNetworkError) return i18n._(unreachable)
  if (TRANSLATED_CODES.has(error.code)) return error.message
  const known = BY_CODE[error.code]
  if (known) return i18n._(known)
  return error.status >= 500 ? i18n._(serverFailed) : undefined
}
