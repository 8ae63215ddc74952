import { useLingui } from '@lingui/react'
import { toasts } from './toast/store.ts'

/**
 * Tells the user that an action failed (`summary`) and, when the error says, why. The meanings of the error
 * codes load with the first failure, not with every screen that could fail; the summary alone shows if they
 * cannot load.
 */
export function useFailureToast(): (summary: string, error: unknown) => Promise<void> {
  const { i18n } = useLingui()
  return async (summary, error) => {
    const detail = await import('../lib/error-message.ts')
      .then((module) => module.errorMessage(error, i18n))
      .catch(() => undefined)
    toasts.add({ severity: 'error', summary, ...(detail ? { detail } : {}), life: detail ? 8000 : 6000 })
  }
}
