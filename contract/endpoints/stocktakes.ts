import { IdParamsSchema } from '../common.ts'
import { ScanHeadersSchema } from '../scans.ts'
import {
  StocktakeDetailSchema,
  StocktakeDeviceParamsSchema,
  StocktakeDeviceReportSchema,
  StocktakeDeviceSchema,
  StocktakeListQuerySchema,
  StocktakePageSchema,
  StocktakeScanResultSchema,
  StocktakeScanSchema,
  StocktakeStartSchema,
  StocktakeSummarySchema,
  StocktakesDueSchema,
} from '../stocktakes.ts'
import { endpoint } from './endpoint.ts'

/** The selected organization's stocktakes: start one, scan into it from any device, close it, read its report. */
export const stocktakeEndpoints = {
  list: endpoint({
    method: 'get',
    path: '/stocktakes',
    query: StocktakeListQuerySchema,
    response: StocktakePageSchema,
  }),
  due: endpoint({ method: 'get', path: '/stocktakes/due', response: StocktakesDueSchema }),
  start: endpoint({
    method: 'post',
    path: '/stocktakes',
    body: StocktakeStartSchema,
    response: StocktakeDetailSchema,
  }),
  one: endpoint({
    method: 'get',
    path: '/stocktakes/:id',
    params: IdParamsSchema,
    response: StocktakeDetailSchema,
  }),
  /** From the outbox, the scan's id as Idempotency-Key: a replay answers the first answer and counts nothing. */
  scan: endpoint({
    method: 'post',
    path: '/stocktakes/:id/scans',
    params: IdParamsSchema,
    headers: ScanHeadersSchema,
    body: StocktakeScanSchema,
    response: StocktakeScanResultSchema,
  }),
  reportDevice: endpoint({
    method: 'put',
    path: '/stocktakes/:id/devices/:deviceId',
    params: StocktakeDeviceParamsSchema,
    body: StocktakeDeviceReportSchema,
    response: StocktakeDeviceSchema,
  }),
  /** Refused (409 `stocktake_scans_unsent`) while a device says it made scans the server has not had. */
  close: endpoint({
    method: 'post',
    path: '/stocktakes/:id/close',
    params: IdParamsSchema,
    response: StocktakeSummarySchema,
  }),
  /** `text/csv` in the reader's language. */
  reportCsv: endpoint({ method: 'get', path: '/stocktakes/:id/report/csv', params: IdParamsSchema }),
  /** `application/pdf` in the reader's language. */
  reportPdf: endpoint({ method: 'get', path: '/stocktakes/:id/report/pdf', params: IdParamsSchema }),
}
