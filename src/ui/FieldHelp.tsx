import type { ReactNode } from 'react'

/** The ids a field's control names in `aria-describedby` for its description and error (undefined: none). */
export function fieldHelpIds(id: string, help: { description?: ReactNode; error?: string | undefined }) {
  const ids = [help.description ? `${id}-description` : '', help.error ? `${id}-error` : ''].filter(Boolean)
  return ids.length > 0 ? ids.join(' ') : undefined
}

/** A field's description, then its error, under the control. */
export function FieldHelp({
  id,
  description,
  error,
}: {
  id: string
  description?: ReactNode
  error?: string | undefined
}) {
  return (
    <>
      {description ? (
        <p id={`${id}-description`} className="text-sm text-slate-600">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </>
  )
}
