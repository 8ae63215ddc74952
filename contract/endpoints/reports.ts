import {
  HoldingsPageSchema,
  HoldingsQuerySchema,
  LeaverListSchema,
  MonthlyActivitySchema,
  MonthlyQuerySchema,
  OpenTransferPageSchema,
  OverduePageSchema,
  OverdueQuerySchema,
  UnseenPageSchema,
  UnseenQuerySchema,
} from '../reports.ts'
import { endpoint } from './endpoint.ts'

/** The selected organization's reports; each `…Export` is `text/csv`, streamed, the whole view (no paging). */
export const reportEndpoints = {
  holdings: endpoint({
    method: 'get',
    path: '/reports/holdings',
    query: HoldingsQuerySchema,
    response: HoldingsPageSchema,
  }),
  holdingTransfers: endpoint({
    method: 'get',
    path: '/reports/holdings/transfers',
    query: HoldingsQuerySchema,
    response: OpenTransferPageSchema,
  }),
  holdingsExport: endpoint({ method: 'get', path: '/reports/holdings/export', query: HoldingsQuerySchema }),
  leavers: endpoint({ method: 'get', path: '/reports/leavers', response: LeaverListSchema }),
  overdue: endpoint({
    method: 'get',
    path: '/reports/overdue',
    query: OverdueQuerySchema,
    response: OverduePageSchema,
  }),
  overdueExport: endpoint({ method: 'get', path: '/reports/overdue/export', query: OverdueQuerySchema }),
  unseen: endpoint({
    method: 'get',
    path: '/reports/unseen',
    query: UnseenQuerySchema,
    response: UnseenPageSchema,
  }),
  unseenExport: endpoint({ method: 'get', path: '/reports/unseen/export', query: UnseenQuerySchema }),
  monthly: endpoint({
    method: 'get',
    path: '/reports/monthly',
    query: MonthlyQuerySchema,
    response: MonthlyActivitySchema,
  }),
  monthlyExport: endpoint({ method: 'get', path: '/reports/monthly/export', query: MonthlyQuerySchema }),
}
