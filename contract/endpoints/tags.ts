import {
  FoundReportAcceptedSchema,
  FoundReportSchema,
  TagIdParamsSchema,
  TagLandingSchema,
  TagListQuerySchema,
  TagLostSchema,
  TagPageSchema,
  TagPublicParamsSchema,
  TagReplacementSchema,
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
  declareLost: endpoint({
    method: 'put',
    path: '/tags/:id/lost',
    params: TagIdParamsSchema,
    response: TagLostSchema,
  }),
  undoLost: endpoint({
    method: 'delete',
    path: '/tags/:id/lost',
    params: TagIdParamsSchema,
    response: TagLostSchema,
  }),
  orderReplacement: endpoint({
    method: 'post',
    path: '/tags/:id/replacements',
    params: TagIdParamsSchema,
    response: TagReplacementSchema,
  }),
}
