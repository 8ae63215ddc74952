import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { type ActivityFilter, type ActivityTarget, activityTargetsQuery } from '../../api/activity.ts'
import { TextField } from '../../ui/TextField.tsx'

/** Letters typed before the picker asks the server, and how long it waits for the typing to pause. */
const MIN_LENGTH = 2
const PAUSE_MS = 250

function TargetLabel({ target }: { target: ActivityTarget }) {
  if (target.kind === 'keychain') {
    const keychainName = target.name
    return <Trans>Keychain: {keychainName}</Trans>
  }
  const tagCode = target.code
  const keychainName = target.keychainName
  return keychainName ? (
    <Trans>
      Tag: {tagCode} ({keychainName})
    </Trans>
  ) : (
    <Trans>Tag: {tagCode}</Trans>
  )
}

/**
 * Narrows the view to one keychain or tag, found by typing part of its name or code: a few of each are offered,
 * and the one picked becomes the view's filter (its chip shows above the list).
 */
export function TargetPicker({
  organizationId,
  onPick,
}: {
  organizationId: string
  onPick: (narrowed: ActivityFilter) => void
}) {
  const { t } = useLingui()
  const [text, setText] = useState('')
  const [q, setQ] = useState('')
  useEffect(() => {
    const wait = setTimeout(() => setQ(text.trim()), PAUSE_MS)
    return () => clearTimeout(wait)
  }, [text])
  const targets = useQuery({
    ...activityTargetsQuery(organizationId, q),
    enabled: q.length >= MIN_LENGTH,
  })
  const found = q.length >= MIN_LENGTH ? targets.data : undefined
  const pick = (narrowed: ActivityFilter) => {
    setText('')
    setQ('')
    onPick(narrowed)
  }
  return (
    <div className="flex flex-col gap-2">
      <TextField
        label={t`Keychain or tag`}
        name="target"
        value={text}
        maxLength={100}
        description={t`Type part of a name or code, then pick one`}
        onChange={setText}
      />
      {found ? (
        found.length === 0 ? (
          <p className="text-sm text-slate-600" role="status">
            <Trans>No keychain or tag matches.</Trans>
          </p>
        ) : (
          <ul aria-label={t`Keychains and tags found`} className="flex flex-wrap gap-2">
            {found.map((target) => (
              <li key={`${target.kind}:${target.id}`}>
                <button
                  type="button"
                  className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-left text-sm text-slate-900 hover:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600"
                  onClick={() =>
                    pick(target.kind === 'keychain' ? { keychain: target.id } : { tag: target.id })
                  }
                >
                  <TargetLabel target={target} />
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  )
}
