import { queryOptions } from '@tanstack/react-query'
import { type FoundReport, TagLandingSchema, TagPageSchema } from '../../contract/tags.ts'
import { api } from '../lib/api.ts'
import { mirrored, mirrorStore } from '../offline/mirrored.ts'

export const tagListQuery = (organizationId: string, cursor: string | null) =>
  queryOptions({
    queryKey: ['tags', organizationId, cursor] as const,
    queryFn: () =>
      api(`/tags${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { schema: TagPageSchema }),
  })

export const tagLandingQuery = (publicId: string) =>
  queryOptions({
    queryKey: ['tag-landing', publicId] as const,
    queryFn: () =>
      mirrored(
        () => api(`/tags/${encodeURIComponent(publicId)}`, { schema: TagLandingSchema }),
        // The mirror's tags come from the refresh: a page seen once adds nothing a signed-in member lacks.
        async () => undefined,
        async () => (await mirrorStore()).mirroredTagLanding(publicId),
      ),
  })

export const sendFoundReport = (publicId: string, report: FoundReport) =>
  api(`/tags/${encodeURIComponent(publicId)}/found-reports`, { method: 'POST', body: report })
