import { and, arrayContains, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { organizationEvents } from '../../db/schema.ts'
import { ledgerKeyOf } from './ledger-key.ts'
import { type SignedHead, signHead } from './signed-head.ts'

/** The last entry of an organization's log, by number: seq 0 and hash '' for a log not begun. */
export async function ledgerHead(db: Db, organizationId: string): Promise<{ seq: number; hash: string }> {
  const [last] = await db
    .select({ seq: organizationEvents.seq, hash: organizationEvents.hash })
    .from(organizationEvents)
    .where(eq(organizationEvents.organizationId, organizationId))
    .orderBy(desc(organizationEvents.seq))
    .limit(1)
  return last ?? { seq: 0, hash: '' }
}

/**
 * A head signed now with the server's ledger key. What is signed is what the database holds (the server does not
 * recompute the chain first: `GET /activity/verification` does that on demand); its worth is that it is kept
 * outside the database — by whoever downloaded an export, received a receipt or noted it from the screen — so a
 * later rewrite of the log that does not reach it again shows.
 */
export function signedHead(
  secret: Buffer,
  now: Date,
  organizationId: string,
  head: { seq: number; hash: string },
): SignedHead {
  return signHead({ organizationId, ...head, signedAt: now.toISOString() }, ledgerKeyOf(secret))
}

/**
 * The head as of a receipt: the entry that recorded it (`transfer.receipt_signed`, in the receipt's own
 * transaction), signed now. Null if that entry is not there (the log was tampered with).
 */
export async function signedHeadOfReceipt(
  db: Db,
  secret: Buffer,
  now: Date,
  receipt: { id: string; organizationId: string; details: { keychain: { id: string } } },
): Promise<SignedHead | null> {
  const [entry] = await db
    .select({ seq: organizationEvents.seq, hash: organizationEvents.hash })
    .from(organizationEvents)
    .where(
      and(
        eq(organizationEvents.organizationId, receipt.organizationId),
        arrayContains(organizationEvents.keychainIds, [receipt.details.keychain.id]),
        eq(organizationEvents.kind, 'transfer.receipt_signed'),
        sql`${organizationEvents.payload}->>'receiptId' = ${receipt.id}`,
      ),
    )
    .limit(1)
  return entry ? signedHead(secret, now, receipt.organizationId, entry) : null
}
