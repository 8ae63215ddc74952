import { useLingui } from '@lingui/react/macro'
import { ErrorCode } from '../../../contract/errors.ts'
import { WEBHOOK_ENDPOINTS_MAX, WEBHOOK_TESTS_PER_MINUTE } from '../../../contract/webhooks.ts'
import { ApiError } from '../../lib/api.ts'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { toasts } from '../../ui/toast/store.ts'

/**
 * Tells why a webhook action failed, naming the limit the organization reached (its webhooks, its test sends
 * this minute) where the general message would only say to wait or check the fields.
 */
export function useWebhookFailureToast(): (summary: string, error: unknown, action?: 'test') => void {
  const { t } = useLingui()
  const failed = useFailureToast()
  return (summary, error, action) => {
    const code = error instanceof ApiError ? error.code : undefined
    const detail =
      code === ErrorCode.webhookLimitReached
        ? t`An organization has at most ${WEBHOOK_ENDPOINTS_MAX} webhooks: delete one to add another.`
        : code === ErrorCode.rateLimited && action === 'test'
          ? t`An organization may send ${WEBHOOK_TESTS_PER_MINUTE} tests a minute: try again in a minute.`
          : undefined
    if (detail) toasts.add({ severity: 'error', summary, detail, life: 8000 })
    else failed(summary, error)
  }
}
