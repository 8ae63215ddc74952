import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { tagListQuery } from '../../api/tags.ts'
import { useHref } from '../../lib/use-locale.ts'
import { PageHeader } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { TagTable } from '../../ui/TagTable.tsx'

export function TagListScreen({ organizationId }: { organizationId: string }) {
  const href = useHref()
  const { cursor, pager } = useCursorPages()
  const { data, isPending, isError, refetch } = useQuery(tagListQuery(organizationId, cursor))
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
          {pager(data.nextCursor)}
        </div>
      )}
    </>
  )
}
