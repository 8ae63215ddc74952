import { queryOptions } from '@tanstack/react-query'
import { tagEndpoints } from '../../contract/endpoints/tags.ts'
import type { FoundReport } from '../../contract/tags.ts'
import { call } from '../lib/call.ts'
import { mirrored, mirrorStore } from '../offline/mirrored.ts'

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
