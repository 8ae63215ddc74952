import { queryOptions } from '@tanstack/react-query'
import { type FoundReport, TagLandingSchema, TagPageSchema } from '../../../contract/tags.ts'
import { api } from '../../lib/api.ts'

export const tagListQuery = (organizationId: string, cursor: string | null) =>
  queryOptions({
    queryKey: ['tags', organizationId, cursor] as const,
    queryFn: () =>
      api(`/tags${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { schema: TagPageSchema }),
  })

export const tagLandingQuery = (publicId: string) =>
  queryOptions({
    queryKey: ['tag-landing', publicId] as const,
    queryFn: () => api(`/tags/${encodeURIComponent(publicId)}`, { schema: TagLandingSchema }),
  })

export const sendFoundReport = (publicId: string, report: FoundReport) =>
  api(`/tags/${encodeURIComponent(publicId)}/found-reports`, { method: 'POST', body: report })
