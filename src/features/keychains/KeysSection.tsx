import { Trans, useLingui } from '@lingui/react/macro'
import { lazy, Suspense } from 'react'
import type { Key } from '../../../contract/keychains.ts'
import { KeyRow } from './KeyRow.tsx'

// The form to add a key appears in edit mode only: it (and the form library) loads then, not with the page.
const AddKeyForm = lazy(() => import('./AddKeyForm.tsx').then((module) => ({ default: module.AddKeyForm })))

export function KeysSection({
  organizationId,
  keychainId,
  keys,
  canEdit,
}: {
  organizationId: string
  keychainId: string
  keys: Key[]
  canEdit: boolean
}) {
  const { t } = useLingui()
  return (
    <section aria-labelledby="keys-title" className="flex flex-col gap-4">
      <h2 id="keys-title" className="text-lg font-semibold text-slate-900">
        <Trans>Keys</Trans>
      </h2>
      {keys.length === 0 ? (
        <p className="text-slate-700">
          <Trans>No keys on this keychain yet.</Trans>
        </p>
      ) : (
        <ul aria-label={t`Keys`} className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {keys.map((key) => (
            <KeyRow
              key={key.id}
              organizationId={organizationId}
              keychainId={keychainId}
              keyItem={key}
              canEdit={canEdit}
            />
          ))}
        </ul>
      )}
      {canEdit ? (
        <Suspense fallback={null}>
          <AddKeyForm organizationId={organizationId} keychainId={keychainId} />
        </Suspense>
      ) : null}
    </section>
  )
}
