import { stringify } from 'csv-stringify/sync'
import { asc, eq } from 'drizzle-orm'
import type { OrderDetails } from '../../../contract/commerce.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Db } from '../../db/client.ts'
import { type OrderRow, tags } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { tagPrint } from '../../shared/tag-view.ts'
import { isPaid } from './actions.ts'

/** The tags a paid order produced, by code (none before payment). */
export async function orderTags(db: Db, order: OrderRow, publicUrl: string): Promise<OrderDetails['tags']> {
  if (!isPaid(order.status)) return []
  const rows = await db.select().from(tags).where(eq(tags.orderId, order.id)).orderBy(asc(tags.code))
  return rows.map((row) => tagPrint(row, publicUrl))
}

const CSV_COLUMNS = ['code', 'name', 'foreground_color', 'background_color', 'url'] as const

/**
 * The order's tags as CSV (RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line
 * break), by csv-stringify. A field a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`, tab or
 * carriage return) is prefixed with `'`.
 */
export function tagsCsv(rows: OrderDetails['tags']): string {
  return stringify(
    rows.map((row) => [row.code, row.name, row.foregroundColor, row.backgroundColor, row.url]),
    {
      header: true,
      columns: [...CSV_COLUMNS],
      record_delimiter: 'windows',
      // With CRLF records csv-stringify quotes on "\r\n" only; a lone line break must be quoted too.
      quoted_match: /[\r\n]/,
      escape_formulas: true,
    },
  )
}

export function assertTagsExist(order: OrderRow): void {
  if (!isPaid(order.status)) {
    throw new ApiError(
      409,
      ErrorCode.conflict,
      `The tags are made once the order is paid; it is ${order.status}.`,
    )
  }
}
