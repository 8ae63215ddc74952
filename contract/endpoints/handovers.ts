import { IdParamsSchema } from '../common.ts'
import { DeviceListSchema, DeviceRegistrationSchema, DeviceSchema } from '../devices.ts'
import {
  DeviceKeysFileSchema,
  HandoverListQuerySchema,
  HandoverPageSchema,
  HandoverParamsSchema,
  HandoverReceiptSchema,
  HandoverSchema,
  HandoverSubmitSchema,
} from '../handover.ts'
import { endpoint } from './endpoint.ts'

/** My devices' signing keys: registered when online, listed and revoked from the profile. */
export const deviceEndpoints = {
  list: endpoint({ method: 'get', path: '/devices', response: DeviceListSchema }),
  /** Registering the same id and key again answers the device as it is (a retry, or a second tab). */
  register: endpoint({
    method: 'post',
    path: '/devices',
    body: DeviceRegistrationSchema,
    response: DeviceSchema,
  }),
  revoke: endpoint({ method: 'delete', path: '/devices/:id', params: IdParamsSchema }),
}

/** Keychains handed from phone to phone offline, in the selected organization. */
export const handoverEndpoints = {
  /** Managers see every handover of the organization; anyone else the ones they gave or received. */
  list: endpoint({
    method: 'get',
    path: '/handovers',
    query: HandoverListQuerySchema,
    response: HandoverPageSchema,
  }),
  /**
   * From either phone's outbox: the first to arrive is applied (201), the same pair again answers that handover
   * (200); a refusal is 409 `handover_refused` with its `reason`.
   */
  submit: endpoint({
    method: 'post',
    path: '/handovers',
    body: HandoverSubmitSchema,
    response: HandoverSchema,
  }),
  /** The organization's device keys, revoked ones included, and the server's key: what checks a receipt. */
  keys: endpoint({ method: 'get', path: '/handovers/keys', response: DeviceKeysFileSchema }),
  one: endpoint({
    method: 'get',
    path: '/handovers/:id',
    params: HandoverParamsSchema,
    response: HandoverSchema,
  }),
  receipt: endpoint({
    method: 'get',
    path: '/handovers/:id/receipt.json',
    params: HandoverParamsSchema,
    response: HandoverReceiptSchema,
  }),
  /** `application/pdf` in the reader's language. */
  receiptPdf: endpoint({ method: 'get', path: '/handovers/:id/receipt.pdf', params: HandoverParamsSchema }),
}
