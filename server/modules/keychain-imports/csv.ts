import { CsvError, parse } from 'csv-parse/sync'
import { ErrorCode } from '../../../contract/errors.ts'
import {
  type CsvFileProblem,
  IMPORT_MAX_ROWS,
  KEYCHAIN_CSV_COLUMNS,
  KEYCHAIN_CSV_HEADERS,
  type KeychainCsvColumn,
} from '../../../contract/keychain-import.ts'
import { ApiError } from '../../http/errors.ts'

/** One data row of the file: its cells by column (absent columns empty), and the line it ends on. */
export type CsvRow = {
  line: number
  cells: Record<KeychainCsvColumn, string>
  /** The row has non-empty cells beyond the header's columns. */
  extraCells: boolean
}

export type ParsedCsv = { delimiter: ',' | ';'; rows: CsvRow[] }

/** A file that cannot be read as a whole: `reason` (and where) for the UI to say it, `message` in English. */
const invalid = (reason: CsvFileProblem, message: string, where: { column?: string; line?: number } = {}) =>
  new ApiError(400, ErrorCode.csvInvalid, message, { fields: { reason, ...where } })

/** "E-mail du détenteur" → "emaildudetenteur": headers compared without case, accents, spaces or punctuation. */
export function headerKey(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
}

const COLUMN_BY_HEADER = new Map<string, KeychainCsvColumn>(
  KEYCHAIN_CSV_COLUMNS.flatMap((column) => [
    [headerKey(column), column] as const,
    ...KEYCHAIN_CSV_HEADERS[column].map((name) => [name, column] as const),
  ]),
)

/**
 * `;` when the header line holds more semicolons than commas (French Excel's "CSV" writes `;`), else `,`. The
 * header's names hold neither, so the first line tells.
 */
export function delimiterOf(text: string): ',' | ';' {
  const end = text.search(/\r?\n/)
  const header = end === -1 ? text : text.slice(0, end)
  const count = (character: string) => header.split(character).length - 1
  return count(';') > count(',') ? ';' : ','
}

function columnsOf(header: string[]): Array<KeychainCsvColumn | null> {
  const seen = new Set<KeychainCsvColumn>()
  const columns = header.map((name, index) => {
    if (name.trim() === '' && index === header.length - 1) return null // a trailing delimiter
    const column = COLUMN_BY_HEADER.get(headerKey(name))
    const written = name.trim().slice(0, 40)
    if (!column)
      throw invalid(
        'unknown_column',
        `Unknown column "${written}": the columns are ${KEYCHAIN_CSV_COLUMNS.join(', ')}.`,
        { column: written },
      )
    if (seen.has(column))
      throw invalid('repeated_column', `The column ${column} appears twice in the header.`, {
        column: written,
      })
    seen.add(column)
    return column
  })
  if (!seen.has('keychain_name'))
    throw invalid(
      'name_column_missing',
      `The header must name the column keychain_name (the columns are ${KEYCHAIN_CSV_COLUMNS.join(', ')}).`,
    )
  return columns
}

/** The characters after which csv-stringify's `escape_formulas` (the export) puts a `'` in front of a cell. */
const FORMULA_START = /^'[-=+@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/

/** A cell as it was before the export escaped it as a formula: `'=1+1` → `=1+1`; any other cell unchanged. */
export function unescapeFormula(cell: string): string {
  return FORMULA_START.test(cell) ? cell.slice(1) : cell
}

/**
 * Reads the keychain CSV with csv-parse: a byte order mark is dropped, `,` or `;` (see `delimiterOf`), CRLF or
 * LF, quoted fields may hold delimiters, quotes (doubled) and line breaks. Rows whose cells are all empty are
 * skipped (spreadsheets leave `;;;;` lines); a cell the export escaped as a formula gets its `'` off. A file that is not CSV, has no header, no data rows, an unknown
 * column or more than `IMPORT_MAX_ROWS` rows is a 400 `csv_invalid` with a readable reason.
 */
export function parseKeychainCsv(input: string): ParsedCsv {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input
  const delimiter = delimiterOf(text)
  let records: Array<{ record: string[]; info: { lines: number } }>
  try {
    records = parse(text, {
      delimiter,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as unknown as typeof records
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines
      throw invalid(
        'not_csv',
        `The file is not valid CSV${line ? ` (line ${line})` : ''}: ${error.message}`,
        line ? { line } : {},
      )
    }
    throw error
  }
  const [header, ...data] = records
  if (!header) throw invalid('empty', 'The file is empty: it needs a header line and one row per key.')
  const columns = columnsOf(header.record)
  const rows: CsvRow[] = []
  for (const { record, info } of data) {
    if (record.every((cell) => cell.trim() === '')) continue
    if (rows.length === IMPORT_MAX_ROWS)
      throw invalid(
        'too_many_rows',
        `The file has more than ${IMPORT_MAX_ROWS} rows: split it into several files.`,
      )
    const cells = Object.fromEntries(KEYCHAIN_CSV_COLUMNS.map((column) => [column, ''])) as CsvRow['cells']
    let extraCells = false
    record.forEach((cell, index) => {
      const column = columns[index]
      if (column) cells[column] = unescapeFormula(cell.trim())
      else if (cell.trim() !== '') extraCells = true
    })
    rows.push({ line: info.lines, cells, extraCells })
  }
  if (rows.length === 0) throw invalid('no_rows', 'The file has no rows below its header.')
  return { delimiter, rows }
}
