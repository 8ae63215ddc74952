import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LABEL_PRINT_MAX, type LabelPrint, type LabelSelection } from '../../../contract/labels.ts'
import type { TagUse } from '../../../contract/tags.ts'
import { downloadLabelsPdf } from '../../api/labels.ts'
import { tagListQuery } from '../../api/tags.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { LabelPrintPanel } from './LabelPrintPanel.tsx'

/**
 * The selected organization's tags, searched by code or name and filtered free (on no key) or used, page by page
 * from the server; chosen ones (or all matching) print again.
 */
export function TagListScreen({
  organizationId,
  printLabels = downloadLabelsPdf,
}: {
  organizationId: string
  printLabels?: (print: LabelPrint) => Promise<void>
}) {
  const { t } = useLingui()
  const [draft, setDraft] = useState('')
  const [q, setQ] = useState('')
  const [use, setUse] = useState<TagUse | ''>('')
  const clear = () => {
    setDraft('')
    setQ('')
    setUse('')
  }
  return (
    <>
      <PageHeader title={<Trans>Tags</Trans>} />
      <div className="mb-4 flex flex-wrap items-end gap-x-4 gap-y-2">
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault()
            setQ(draft.trim())
          }}
        >
          <TextField
            label={<Trans>Search by code or name</Trans>}
            name="q"
            value={draft}
            onChange={setDraft}
          />
          <Button type="submit" variant="secondary">
            <Trans>Search</Trans>
          </Button>
        </form>
        <SelectField
          label={<Trans>Show</Trans>}
          name="use"
          value={use}
          onChange={(value) => setUse(value === 'free' || value === 'used' ? value : '')}
          options={[
            { value: '', label: t`All tags` },
            { value: 'free', label: t`Free tags (on no key)` },
            { value: 'used', label: t`Used tags (on a key)` },
          ]}
        />
      </div>
      {/* A new search or filter starts from its first page with nothing chosen. */}
      <TagPages
        key={`${use}:${q}`}
        organizationId={organizationId}
        q={q}
        use={use}
        onClear={clear}
        printLabels={printLabels}
      />
    </>
  )
}

function TagPages({
  organizationId,
  q,
  use,
  onClear,
  printLabels,
}: {
  organizationId: string
  q: string
  use: TagUse | ''
  onClear: () => void
  printLabels: (print: LabelPrint) => Promise<void>
}) {
  const { t } = useLingui()
  const href = useHref()
  const { cursor, pager } = useCursorPages()
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set())
  const [allMatching, setAllMatching] = useState(false)
  const { data, isPending, isError, refetch } = useQuery(tagListQuery(organizationId, { q, use }, cursor))
  if (isPending) return <LoadingState label={<Trans>Loading tags…</Trans>} />
  if (isError)
    return (
      <ErrorState message={<Trans>The tags could not be loaded.</Trans>} onRetry={() => void refetch()} />
    )
  if (data.data.length === 0)
    return q || use ? (
      <EmptyState title={<Trans>No tag matches this search.</Trans>}>
        <Button variant="secondary" onPress={onClear}>
          <Trans>Clear the search</Trans>
        </Button>
      </EmptyState>
    ) : (
      <EmptyState title={<Trans>No tags yet: they are created when a tag order is paid.</Trans>} />
    )
  // The print filter knows free tags, not used ones: those are chosen one by one.
  const canChooseAll = use !== 'used'
  const selection: LabelSelection | null = allMatching
    ? { by: 'filter', ...(q ? { q } : {}), ...(use === 'free' ? { unused: 'true' as const } : {}) }
    : chosen.size > 0
      ? { by: 'ids', ids: [...chosen] }
      : null
  const toggle = (id: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current)
      if (on) next.add(id)
      else next.delete(id)
      return next
    })
  const max = LABEL_PRINT_MAX
  return (
    <div className="flex flex-col gap-4">
      <LabelPrintPanel selection={selection} count={allMatching ? null : chosen.size} onPrint={printLabels} />
      {canChooseAll ? (
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={allMatching}
            onChange={(event) => setAllMatching(event.target.checked)}
          />
          {use === 'free' ? (
            q ? (
              <Trans>
                Choose every free tag matching “{q}” (at most {max})
              </Trans>
            ) : (
              <Trans>Choose every free tag (at most {max})</Trans>
            )
          ) : q ? (
            <Trans>
              Choose every tag matching “{q}” (at most {max})
            </Trans>
          ) : (
            <Trans>Choose every tag (at most {max})</Trans>
          )}
        </label>
      ) : null}
      <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
        {data.data.map((tag) => {
          const code = tag.code
          return (
            <li key={tag.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
              <input
                type="checkbox"
                aria-label={t`Choose ${code}`}
                checked={allMatching || chosen.has(tag.id)}
                disabled={allMatching}
                onChange={(event) => toggle(tag.id, event.target.checked)}
              />
              <span
                className="rounded-md px-2 py-1 font-mono text-sm font-bold ring-1 ring-slate-300"
                style={{ color: tag.foregroundColor, backgroundColor: tag.backgroundColor }}
              >
                {code}
              </span>
              <AppLink
                href={href(`/tags/${tag.publicId}`)}
                className="font-medium text-slate-900 hover:underline"
              >
                {tag.name}
              </AppLink>
              <span className="ml-auto text-sm text-slate-700">
                {tag.key ? (
                  <AppLink href={href(`/app/keychains/${tag.key.keychainId}`)}>
                    {tag.key.keychainName} · {tag.key.name}
                  </AppLink>
                ) : (
                  <Trans>Not on a key yet</Trans>
                )}
              </span>
            </li>
          )
        })}
      </ul>
      {pager(data.nextCursor)}
    </div>
  )
}
