import { transferEndpoints } from '../../../contract/endpoints/transfers.ts'
import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { receiptPdfOf } from './receipt-pdf.ts'
import { readableReceipt, toReceipt } from './service.ts'

/** Handover receipts: read by the organization's ADMIN and MANAGER and by the two parties; 404 for anyone else. */
export function receiptRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...transferEndpoints.receipt,
      summary:
        "A transfer's handover receipt: keychain, keys, window, both parties, times, typed name, signature and photo; for the organization's admins and managers and the two parties",
      access: 'signedIn',
      responses: { 200: { description: 'The receipt' } },
    },
    async (c, { session, params }) =>
      c.json(toReceipt(await readableReceipt(db, params.id, session.user.id)), 200),
  )

  api.route(
    {
      ...transferEndpoints.receiptPdf,
      summary: "The handover receipt as a PDF, in the recipient's language; the same readers as the receipt",
      access: 'signedIn',
      responses: { 200: { description: 'application/pdf' } },
    },
    async (c, { session, params }) => {
      const receipt = await readableReceipt(db, params.id, session.user.id)
      const { pdf } = await receiptPdfOf(deps, receipt)
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="receipt-${receipt.transferId}.pdf"`,
        'Cache-Control': 'private, no-store',
      })
    },
  )
}
