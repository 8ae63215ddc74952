import { pushSupport } from '../../lib/push-support.ts'

/** Remembers "not now" on this device. */
export const PUSH_OFFER_DISMISSED = 'trousseau-push-offer'

/** Whether to offer push after a pickup: online, the browser can, nobody answered its question, not turned down here. */
export function shouldOfferPush(): boolean {
  try {
    return (
      navigator.onLine &&
      pushSupport() === 'supported' &&
      Notification.permission === 'default' &&
      localStorage.getItem(PUSH_OFFER_DISMISSED) === null
    )
  } catch {
    return false
  }
}
