import { IdParamsSchema } from '../common.ts'
import { LabelSheetSchema } from '../labels.ts'
import {
  HookLabelPrintSchema,
  HookParamsSchema,
  HookRangeResultSchema,
  HookRangeSchema,
  HookScanResultSchema,
  HookScanSchema,
  KeychainHomeSchema,
  KeychainLocationSchema,
  PlaceCreateSchema,
  PlaceDetailSchema,
  PlaceTreeSchema,
  PlaceUpdateSchema,
} from '../places.ts'
import { ScanHeadersSchema } from '../scans.ts'
import { endpoint } from './endpoint.ts'

/** The selected organization's places and hooks, and where each keychain lives. */
export const placeEndpoints = {
  tree: endpoint({ method: 'get', path: '/places', response: PlaceTreeSchema }),
  one: endpoint({ method: 'get', path: '/places/:id', params: IdParamsSchema, response: PlaceDetailSchema }),
  create: endpoint({ method: 'post', path: '/places', body: PlaceCreateSchema, response: PlaceDetailSchema }),
  update: endpoint({
    method: 'patch',
    path: '/places/:id',
    params: IdParamsSchema,
    body: PlaceUpdateSchema,
    response: PlaceDetailSchema,
  }),
  /** Refused (409) while it has places under it or keychains whose home is one of its hooks. */
  remove: endpoint({ method: 'delete', path: '/places/:id', params: IdParamsSchema }),
  addHooks: endpoint({
    method: 'post',
    path: '/places/:id/hooks',
    params: IdParamsSchema,
    body: HookRangeSchema,
    response: HookRangeResultSchema,
  }),
  /** Refused (409) while it is a keychain's home. */
  removeHook: endpoint({ method: 'delete', path: '/places/:id/hooks/:hookId', params: HookParamsSchema }),
  labels: endpoint({
    method: 'post',
    path: '/places/:id/labels',
    params: IdParamsSchema,
    body: HookLabelPrintSchema,
    response: LabelSheetSchema,
  }),
  /** `application/pdf`. */
  labelsPdf: endpoint({
    method: 'post',
    path: '/places/:id/labels/pdf',
    params: IdParamsSchema,
    body: HookLabelPrintSchema,
  }),
  location: endpoint({
    method: 'get',
    path: '/keychains/:id/location',
    params: IdParamsSchema,
    response: KeychainLocationSchema,
  }),
  setHome: endpoint({
    method: 'put',
    path: '/keychains/:id/home',
    params: IdParamsSchema,
    body: KeychainHomeSchema,
    response: KeychainLocationSchema,
  }),
  /** From the outbox after a return: the hook it was put on. */
  hookScan: endpoint({
    method: 'post',
    path: '/keychains/:id/hook-scans',
    params: IdParamsSchema,
    headers: ScanHeadersSchema,
    body: HookScanSchema,
    response: HookScanResultSchema,
  }),
}
