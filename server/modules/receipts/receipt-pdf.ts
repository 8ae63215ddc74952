import { eq } from 'drizzle-orm'
import { organizations, type TransferReceiptRow } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { signedHeadOfReceipt } from '../activity/head.ts'
import { renderReceiptPdf } from './pdf.ts'

/**
 * The receipt's PDF as its readers get it, downloaded or mailed: in the receipt's language, at the organization's
 * time zone (answered too, for the mail around it), with the ledger's signed head as of the receipt.
 */
export async function receiptPdfOf(
  deps: Pick<AppDeps, 'database' | 'secret' | 'clock'>,
  receipt: TransferReceiptRow,
): Promise<{ pdf: Uint8Array; timeZone: string }> {
  const { db } = deps.database
  const [organization] = await db
    .select({ timeZone: organizations.timeZone })
    .from(organizations)
    .where(eq(organizations.id, receipt.organizationId))
  const timeZone = organization?.timeZone ?? 'Europe/Paris'
  const head = await signedHeadOfReceipt(db, deps.secret, deps.clock.now(), receipt)
  return { pdf: await renderReceiptPdf(receipt, receipt.locale, timeZone, head), timeZone }
}
