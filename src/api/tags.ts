import { queryOptions } from '@tanstack/react-query'
import { tagEndpoints } from '../../contract/endpoints/tags.ts'
import type { FoundReport } from '../../contract/tags.ts'
import { call } from '../lib/call.ts'
import { mirrored, mirrorStore } from '../offline/mirrored.ts'
import { useRefetchingMutation } from './refetching-mutation.ts'

export const tagListQuery = (organizationId: string, cursor: string | null) =>
  queryOptions({
    queryKey: ['tags', organizationId, cursor] as const,
    queryFn: () => call(tagEndpoints.list, { query: { cursor: cursor ?? undefined } }),
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
  useRefetchingMutation(['cart', organizationId], (id: string) =>
    call(tagEndpoints.orderReplacement, { params: { id } }),
  )
