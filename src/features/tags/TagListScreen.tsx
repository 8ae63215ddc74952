import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useHref } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { TagTable } from '../../ui/TagTable.tsx'
import { tagListQuery } from './api.ts'

export function TagListScreen({ organizationId }: { organizationId: string }) {
  const href = useHref()
  const [cursors, setCursors] = useState<Array<string | null>>([null])
  const { data, isPending, isError, refetch } = useQuery(tagListQuery(organizationId, cursors.at(-1) ?? null))
  return (
    <>
      <PageHeader title={<Trans>Tags</Trans>} />
      {isPending ? (
        <LoadingState label={<Trans>Loading tags…</Trans>} />
      ) : isError ? (
        <ErrorState message={<Trans>The tags could not be loaded.</Trans>} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <EmptyState title={<Trans>No tags yet: they are created when a tag order is paid.</Trans>} />
      ) : (
        <div className="flex flex-col gap-4">
          <TagTable
            tags={data.data}
            tagHref={(tag) => href(`/tags/${tag.publicId}`)}
            keychainHref={(id) => href(`/app/keychains/${id}`)}
          />
          <div className="flex gap-3">
            {cursors.length > 1 ? (
              <Button variant="secondary" onPress={() => setCursors((all) => all.slice(0, -1))}>
                <Trans>Previous page</Trans>
              </Button>
            ) : null}
            {data.nextCursor ? (
              <Button variant="secondary" onPress={() => setCursors((all) => [...all, data.nextCursor])}>
                <Trans>Next page</Trans>
              </Button>
            ) : null}
          </div>
        </div>
      )}
    </>
  )
}
