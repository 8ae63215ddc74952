import { randomBytes } from 'node:crypto'
import { and, eq, gt } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { localPaymentSessions } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { notFound } from '../../http/errors.ts'
import type { PaymentProvider, SessionStatus } from './provider.ts'

/** A sandbox session can be paid for an hour, then it is expired (like a provider's checkout page). */
export const LOCAL_SESSION_TTL_MS = 60 * 60 * 1000

export type LocalOutcome = 'pay' | 'fail' | 'cancel'
const OUTCOME_STATUS = { pay: 'paid', fail: 'unpaid', cancel: 'expired' } as const

function localSessionUrl(publicUrl: string, sessionId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/api/payments/local/${sessionId}`
}

export async function findLocalSession(db: Db, id: string) {
  const [row] = await db.select().from(localPaymentSessions).where(eq(localPaymentSessions.id, id))
  return row ?? null
}

/** An open session past its expiry reads as expired. */
export function localStatus(row: { status: SessionStatus; expiresAt: Date }, now: Date): SessionStatus {
  return row.status === 'open' && now >= row.expiresAt ? 'expired' : row.status
}

/**
 * The payer's choice on the sandbox page, recorded once (only an open, unexpired session changes). The
 * order itself changes afterwards through the provider's `retrieve`, like a real provider's.
 */
export async function recordLocalOutcome(db: Db, id: string, outcome: LocalOutcome, now: Date) {
  await db
    .update(localPaymentSessions)
    .set({ status: OUTCOME_STATUS[outcome], completedAt: now })
    .where(
      and(
        eq(localPaymentSessions.id, id),
        eq(localPaymentSessions.status, 'open'),
        gt(localPaymentSessions.expiresAt, now),
      ),
    )
}

/**
 * The sandbox provider: sessions are rows, the "checkout page" is the server's own
 * `GET /api/payments/local/{sessionId}`, and no money moves.
 */
export function createLocalProvider(deps: Pick<AppDeps, 'config' | 'database' | 'clock'>): PaymentProvider {
  const { db } = deps.database
  return {
    name: 'local',
    async createSession(order) {
      const id = randomBytes(16).toString('base64url')
      const now = deps.clock.now()
      await db.insert(localPaymentSessions).values({
        id,
        orderId: order.id,
        status: 'open',
        createdAt: now,
        expiresAt: new Date(now.getTime() + LOCAL_SESSION_TTL_MS),
      })
      return { sessionId: id, url: localSessionUrl(deps.config.publicUrl, id) }
    },
    async retrieve(sessionId) {
      const row = await findLocalSession(db, sessionId)
      if (!row) throw notFound('No such payment session.')
      return localStatus(row, deps.clock.now())
    },
    async expire(sessionId) {
      await db
        .update(localPaymentSessions)
        .set({ status: 'expired', completedAt: deps.clock.now() })
        .where(and(eq(localPaymentSessions.id, sessionId), eq(localPaymentSessions.status, 'open')))
    },
  }
}
