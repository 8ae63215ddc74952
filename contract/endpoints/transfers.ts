import { IdParamsSchema, PageQuerySchema } from '../common.ts'
import { PickupBodySchema, ReceiptSchema } from '../receipts.ts'
import { HoldingsPageSchema } from '../reports.ts'
import { ScanHeadersSchema } from '../scans.ts'
import {
  ExtensionDecisionSchema,
  ExtensionParamsSchema,
  ExtensionRequestSchema,
  KeychainTransfersQuerySchema,
  MemberTransfersQuerySchema,
  TransferCreateSchema,
  TransferListQuerySchema,
  TransferListSchema,
  TransferOverlapQuerySchema,
  TransferPageSchema,
  TransferRequestsQuerySchema,
  TransferSchema,
} from '../transfers.ts'
import { endpoint } from './endpoint.ts'

/** Transfers: a keychain's, the organization's, those addressed to the caller; cancelling, and the pickups. */
export const transferEndpoints = {
  ofKeychain: endpoint({
    method: 'get',
    path: '/keychains/:id/transfers',
    params: IdParamsSchema,
    query: KeychainTransfersQuerySchema,
    response: TransferPageSchema,
  }),
  create: endpoint({
    method: 'post',
    path: '/keychains/:id/transfers',
    params: IdParamsSchema,
    body: TransferCreateSchema,
    response: TransferSchema,
  }),
  /** The keychain's transfers a new one from `fromDate` to `toDate` would overlap (what `create` refuses, 409). */
  overlaps: endpoint({
    method: 'get',
    path: '/keychains/:id/transfers/overlaps',
    params: IdParamsSchema,
    query: TransferOverlapQuerySchema,
    response: TransferListSchema,
  }),
  /** A member's page: the transfers addressed to them, newest window first. */
  ofMember: endpoint({
    method: 'get',
    path: '/users/:id/transfers',
    params: IdParamsSchema,
    query: MemberTransfersQuerySchema,
    response: TransferPageSchema,
  }),
  /** A member's page: who they are and the keychains they hold now, by name, with the day each is due back. */
  memberHoldings: endpoint({
    method: 'get',
    path: '/users/:id/holdings',
    params: IdParamsSchema,
    query: PageQuerySchema,
    response: HoldingsPageSchema,
  }),
  list: endpoint({
    method: 'get',
    path: '/transfers',
    query: TransferListQuerySchema,
    response: TransferPageSchema,
  }),
  requests: endpoint({
    method: 'get',
    path: '/transfers/requests',
    query: TransferRequestsQuerySchema,
    response: TransferPageSchema,
  }),
  one: endpoint({ method: 'get', path: '/transfers/:id', params: IdParamsSchema, response: TransferSchema }),
  /** Answers the cancelled transfer. */
  cancel: endpoint({
    method: 'delete',
    path: '/transfers/:id',
    params: IdParamsSchema,
    response: TransferSchema,
  }),
  /** A reminder mailed now to the holder of an overdue transfer (one an hour at most); answers the transfer. */
  chase: endpoint({
    method: 'post',
    path: '/transfers/:id/chase',
    params: IdParamsSchema,
    response: TransferSchema,
  }),
  /** The holder asks for a later to-date; idempotent by `Idempotency-Key` (the offline outbox replays it). */
  requestExtension: endpoint({
    method: 'post',
    path: '/transfers/:id/extensions',
    params: IdParamsSchema,
    headers: ScanHeadersSchema,
    body: ExtensionRequestSchema,
    response: TransferSchema,
  }),
  /** A manager approves (the window moves) or refuses a pending request. */
  decideExtension: endpoint({
    method: 'post',
    path: '/transfers/:id/extensions/:extensionId',
    params: ExtensionParamsSchema,
    body: ExtensionDecisionSchema,
    response: TransferSchema,
  }),
  /**
   * The pickup or the return, idempotent by `Idempotency-Key`; a first pickup carries the recipient's acceptance
   * (`{ acceptance }`, stored as the handover receipt), a return an empty body.
   */
  pickup: endpoint({
    method: 'post',
    path: '/transfers/:id/pickups',
    params: IdParamsSchema,
    headers: ScanHeadersSchema,
    body: PickupBodySchema,
    response: TransferSchema,
  }),
  /** The handover receipt of a transfer (its first pickup's acceptance). */
  receipt: endpoint({
    method: 'get',
    path: '/transfers/:id/receipt',
    params: IdParamsSchema,
    response: ReceiptSchema,
  }),
  /** The receipt as a PDF (`application/pdf`), in the recipient's language. */
  receiptPdf: endpoint({ method: 'get', path: '/transfers/:id/receipt/pdf', params: IdParamsSchema }),
}
