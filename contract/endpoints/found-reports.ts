import {
  FoundReportDetailSchema,
  FoundReportListQuerySchema,
  FoundReportPageSchema,
  FoundReportParamsSchema,
  FoundReportReplySchema,
  FoundReportStatusChangeSchema,
} from '../found-reports.ts'
import { endpoint } from './endpoint.ts'

/** The selected organization's found-key reports: list, detail, status, replies to the finder. */
export const foundReportEndpoints = {
  list: endpoint({
    method: 'get',
    path: '/found-reports',
    query: FoundReportListQuerySchema,
    response: FoundReportPageSchema,
  }),
  one: endpoint({
    method: 'get',
    path: '/found-reports/:id',
    params: FoundReportParamsSchema,
    response: FoundReportDetailSchema,
  }),
  changeStatus: endpoint({
    method: 'patch',
    path: '/found-reports/:id',
    params: FoundReportParamsSchema,
    body: FoundReportStatusChangeSchema,
    response: FoundReportDetailSchema,
  }),
  reply: endpoint({
    method: 'post',
    path: '/found-reports/:id/replies',
    params: FoundReportParamsSchema,
    body: FoundReportReplySchema,
    response: FoundReportDetailSchema,
  }),
}
