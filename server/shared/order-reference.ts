import type { OrderRow } from '../db/schema.ts'

const REFERENCE_YEAR = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Paris', year: 'numeric' })

/** `TR-2026-000123`: the year it was placed (Paris time) and its running number. */
export function orderReference(row: Pick<OrderRow, 'createdAt' | 'number'>): string {
  return `TR-${REFERENCE_YEAR.format(row.createdAt)}-${String(row.number).padStart(6, '0')}`
}
