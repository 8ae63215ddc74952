import { useLingui } from '@lingui/react'
import { errorMessage } from '../lib/error-message.ts'
import { toasts } from './toast/store.ts'

/** Tells the user that an action failed (`summary`) and, when the error says, why. */
export function useFailureToast(): (summary: string, error: unknown) => void {
  const { i18n } = useLingui()
  return (summary, error) => {
    const detail = errorMessage(error, i18n)
    toasts.add({ severity: 'error', summary, ...(detail ? { detail } : {}), life: detail ? 8000 : 6000 })
  }
}
