import { queryOptions } from '@tanstack/react-query'
import { tagEndpoints } from '../../contract/endpoints/tags.ts'
import type { FoundReport, TagUse } from '../../contract/tags.ts'
import { call } from '../lib/call.ts'
import { mirrored, mirrorStore } from '../offline/mirrored.ts'
import { cartKey } from './cart-key.ts'
import { useRefetchingMutation } from './refetching-mutation.ts'

/** The organization's tag lists: a pairing or an order makes every one of them stale (`all`). */
export const tagKeys = {
  all: (organizationId: string) => ['tags', organizationId] as const,
  list: (organizationId: string, filter: TagListFilter, cursor: string | null) =>
    ['tags', organizationId, 'list', filter.q, filter.use, cursor] as const,
  keychainOf: (organizationId: string, code: string) =>
    ['tags', organizationId, 'keychain-of', code] as const,
}

/** A search of the tag list: by code or name (`q`), free or used tags only (`use`); empty strings for all. */
export type TagListFilter = { q: string; use: TagUse | '' }

/** A page of the selected organization's tags matching the filter. */
export const tagListQuery = (organizationId: string, filter: TagListFilter, cursor: string | null) =>
  queryOptions({
    queryKey: tagKeys.list(organizationId, filter, cursor),
    queryFn: () =>
      call(tagEndpoints.list, {
        query: { cursor: cursor ?? undefined, q: filter.q || undefined, use: filter.use || undefined },
      }),
  })

export const tagLandingQuery = (publicId: string) =>
  queryOptions({
    queryKey: ['tag-landing', publicId] as const,
    queryFn: () =>
      mirrored(
        () => call(tagEndpoints.landing, { params: { publicId } }),
        // The mirror's tags come from the refresh: a page seen once adds nothing a signed-in member lacks.
        async () => undefined,
        async () => (await mirrorStore()).mirroredTagLanding(publicId),
      ),
  })

export const sendFoundReport = (publicId: string, report: FoundReport) =>
  call(tagEndpoints.reportFound, { params: { publicId }, body: report })

/** Declares a tag lost (`lost: true`) or found again; the tag's page is fetched again. */
export const useSetTagLost = (publicId: string) =>
  useRefetchingMutation(tagLandingQuery(publicId).queryKey, ({ id, lost }: { id: string; lost: boolean }) =>
    call(lost ? tagEndpoints.declareLost : tagEndpoints.undoLost, { params: { id } }),
  )

/** Puts a reprint of the tag (same code, new QR once paid) into the cart of the tag's organization. */
export const useOrderTagReplacement = (organizationId: string) =>
  useRefetchingMutation(cartKey(organizationId), (id: string) =>
    call(tagEndpoints.orderReplacement, { params: { id } }),
  )
