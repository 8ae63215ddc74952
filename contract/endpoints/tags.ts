import {
  FoundReportAcceptedSchema,
  FoundReportSchema,
  TagLandingSchema,
  TagListQuerySchema,
  TagPageSchema,
  TagPublicParamsSchema,
} from '../tags.ts'
import { endpoint } from './endpoint.ts'

/** The selected organization's tags, and a tag's public landing. */
export const tagEndpoints = {
  list: endpoint({ method: 'get', path: '/tags', query: TagListQuerySchema, response: TagPageSchema }),
  landing: endpoint({
    method: 'get',
    path: '/tags/:publicId',
    params: TagPublicParamsSchema,
    response: TagLandingSchema,
  }),
  reportFound: endpoint({
    method: 'post',
    path: '/tags/:publicId/found-reports',
    params: TagPublicParamsSchema,
    body: FoundReportSchema,
    response: FoundReportAcceptedSchema,
  }),
}
