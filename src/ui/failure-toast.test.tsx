import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { beforeAll, describe, expect, it } from 'vitest'
import { ErrorCode } from '../../contract/errors.ts'
import { useLocale } from '../../tests/render.tsx'
import { ApiError } from '../lib/api.ts'
import { useFailureToast } from './failure-toast.ts'
import { toasts } from './toast/store.ts'

const wrapper = ({ children }: { children: ReactNode }) => <I18nProvider i18n={i18n}>{children}</I18nProvider>

beforeAll(async () => {
  await useLocale('en')
})

describe('the failure toast', () => {
  it('says what failed and, from the error code, why', async () => {
    const { result } = renderHook(() => useFailureToast(), { wrapper })
    await result.current('The key could not be added.', new ApiError(403, ErrorCode.forbidden, 'Forbidden'))
    expect(toasts.getSnapshot().at(-1)).toMatchObject({
      severity: 'error',
      summary: 'The key could not be added.',
      detail: 'Your role does not allow this.',
    })
  })

  it('says only what failed when the error tells nothing more', async () => {
    const { result } = renderHook(() => useFailureToast(), { wrapper })
    await result.current('The key could not be added.', new Error('boom'))
    const toast = toasts.getSnapshot().at(-1)
    expect(toast).toMatchObject({ severity: 'error', summary: 'The key could not be added.' })
    expect(toast?.detail).toBeUndefined()
  })
})
