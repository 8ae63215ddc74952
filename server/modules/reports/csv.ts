import { stringify } from 'csv-stringify/sync'

/** Rows read per statement while exporting: memory stays flat whatever the report's size. */
export const REPORT_BATCH = 500

/** The CSV dialect of every export: Windows line ends (spreadsheets), no formula can start a cell. */
export function csvText(records: unknown[][], columns: readonly string[] | null): string {
  return stringify(records, {
    header: columns !== null,
    ...(columns ? { columns: [...columns] } : {}),
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
    escape_formulas: true,
  })
}

/** A batch of records and where the next one starts (null: that was the last). */
export type CsvBatch<Cursor> = { records: unknown[][]; next: Cursor | null }

/**
 * The report as CSV, streamed batch by batch (keyset on each report's order): a batch is read only when the client
 * has taken the previous one (the stream's back-pressure), so a large organization's report is never held whole.
 */
export function csvStream<Cursor>(
  columns: readonly string[],
  batch: (after: Cursor | null) => Promise<CsvBatch<Cursor>>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let after: Cursor | null = null
  let first = true
  return new ReadableStream<Uint8Array>({
    // A pull that enqueues nothing and does not close is not called again: a batch without records that is not
    // the last (the holdings' keychains ending on a full batch, before its transfers) reads on to the next one.
    async pull(controller) {
      let sent = false
      while (!sent) {
        const { records, next } = await batch(after)
        if (records.length > 0 || first) {
          controller.enqueue(encoder.encode(csvText(records, first ? columns : null)))
          sent = true
        }
        first = false
        if (next === null) return controller.close()
        after = next
      }
    },
  })
}

export const csvHeaders = (name: string) => ({
  'Content-Type': 'text/csv; charset=utf-8',
  'Content-Disposition': `attachment; filename="${name}.csv"`,
})
