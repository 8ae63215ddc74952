import { ErrorCode } from '../../contract/errors.ts'
import { ApiError } from './api.ts'

/** Codes whose message the server writes in the caller's language (the transfer rules); others are English. */
export const TRANSLATED_CODES: ReadonlySet<string> = new Set([
  ErrorCode.subscriptionRequired,
  ErrorCode.transferAllowanceExceeded,
  ErrorCode.transferOverlap,
  ErrorCode.pickupRefused,
  ErrorCode.notOverdue,
  ErrorCode.chasedRecently,
])

/** The server's explanation when it is one written for the reader (in their language), else `fallback`. */
export function refusalMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && TRANSLATED_CODES.has(error.code) ? error.message : fallback
}
