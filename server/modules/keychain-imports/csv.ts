import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { CsvError, type Info, parse } from 'csv-parse'
import { ErrorCode } from '../../../contract/errors.ts'
import {
  type CsvFileProblem,
  IMPORT_MAX_EMPTY_ROWS,
  IMPORT_MAX_ROW_CHARS,
  IMPORT_MAX_ROWS,
  KEYCHAIN_CSV_COLUMNS,
  KEYCHAIN_CSV_HEADERS,
  type KeychainCsvColumn,
} from '../../../contract/keychain-import.ts'
import { ApiError } from '../../http/errors.ts'

/** One data row of the file: its cells by column (absent columns empty), and the line it ends on. */
type CsvRow = {
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

const SEMICOLON = ';'.charCodeAt(0)
const COMMA = ','.charCodeAt(0)

/**
 * `;` when the header line holds more semicolons than commas (French Excel's "CSV" writes `;`), else `,`. The
 * header's names hold neither, so the first line tells. Counted without splitting: a first line of a million
 * commas is no million-cell array.
 */
export function delimiterOf(text: string): ',' | ';' {
  const end = text.search(/\r?\n/)
  const headerEnd = end === -1 ? text.length : end
  let semicolons = 0
  let commas = 0
  for (let index = 0; index < headerEnd; index++) {
    const character = text.charCodeAt(index)
    if (character === SEMICOLON) semicolons++
    else if (character === COMMA) commas++
  }
  return semicolons > commas ? ';' : ','
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
 * Cells a row is cut into at most: from this cell on, the rest of the row is one cell (csv-parse's
 * `ignore_last_delimiters`), which `IMPORT_MAX_ROW_CHARS` bounds and which, being beyond the header's columns,
 * makes a `column_count` row error when not empty. A spreadsheet's trailing empty cells stay far below it.
 */
const MAX_CELLS = 1000
/**
 * Bytes of the file parsed between two turns of the event loop. Small because of what a chunk may hold: a row
 * whose cell count differs from the header's costs csv-parse an error object (its `relax_column_count` builds one
 * for every such row), some 10 µs on an idle core and 60 under load, and 2 KiB holds up to 1,024 rows of one
 * empty cell.
 */
const CHUNK_BYTES = 2 * 1024

/** The file's bytes a chunk at a time, letting the event loop serve other requests between two chunks. */
async function* chunksOf(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) {
    if (start > 0) await nextTurn()
    yield bytes.subarray(start, start + CHUNK_BYTES)
  }
}

/** csv-parse's refusal as ours: a row over `IMPORT_MAX_ROW_CHARS`, or text that is not CSV (with its line). */
function refusalOf(error: CsvError & { lines?: number }): ApiError {
  const line = error.lines
  if (error.code === 'CSV_MAX_RECORD_SIZE')
    return invalid(
      'row_too_long',
      `The row at line ${line} is longer than ${IMPORT_MAX_ROW_CHARS} characters: is a quote that opens a cell left unclosed?`,
      line ? { line } : {},
    )
  return invalid(
    'not_csv',
    `The file is not valid CSV${line ? ` (line ${line})` : ''}: ${error.message}`,
    line ? { line } : {},
  )
}

const isBlank = (record: string[]) => record.every((cell) => cell.trim() === '')

/**
 * Reads the keychain CSV with csv-parse: a byte order mark is dropped, `,` or `;` (see `delimiterOf`), CRLF or
 * LF, quoted fields may hold delimiters, quotes (doubled) and line breaks. Rows whose cells are all empty are
 * skipped (spreadsheets leave `;;;;` lines); a cell the export escaped as a formula gets its `'` off. A file that is
 * not CSV, has no header, no data rows, an unknown column, more than `IMPORT_MAX_ROWS` rows or
 * `IMPORT_MAX_EMPTY_ROWS` empty ones, or a row longer than `IMPORT_MAX_ROW_CHARS` is a 400 `csv_invalid` with a
 * readable reason.
 *
 * The file is parsed as a stream, `CHUNK_BYTES` at a time with a turn of the event loop between chunks, and no
 * further than the first limit it passes: a file of millions of short lines costs what one of `IMPORT_MAX_ROWS`
 * does, and a request never holds the event loop for more than one chunk. Nothing is kept of a row but its cells.
 */
export async function parseKeychainCsv(input: string): Promise<ParsedCsv> {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input
  const delimiter = delimiterOf(text)
  let columns: Array<KeychainCsvColumn | null> | undefined
  const rows: CsvRow[] = []
  let emptyRows = 0
  const parser = parse({
    delimiter,
    info: true,
    ignore_last_delimiters: MAX_CELLS,
    max_record_size: IMPORT_MAX_ROW_CHARS,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
  })
  try {
    await pipeline(Readable.from(chunksOf(Buffer.from(text))), parser, async (records) => {
      for await (const { record, info } of records as AsyncIterable<{ record: string[]; info: Info }>) {
        if (!columns) columns = columnsOf(record)
        else if (!isBlank(record)) {
          if (rows.length === IMPORT_MAX_ROWS)
            throw invalid(
              'too_many_rows',
              `The file has more than ${IMPORT_MAX_ROWS} rows: split it into several files.`,
            )
          rows.push(rowOf(record, info.lines, columns))
        } else if (++emptyRows > IMPORT_MAX_EMPTY_ROWS)
          throw invalid(
            'too_many_empty_rows',
            `The file has more than ${IMPORT_MAX_EMPTY_ROWS} empty rows: delete them in the spreadsheet.`,
          )
      }
    })
  } catch (error) {
    if (error instanceof CsvError) throw refusalOf(error)
    throw error
  }
  if (!columns) throw invalid('empty', 'The file is empty: it needs a header line and one row per key.')
  if (rows.length === 0) throw invalid('no_rows', 'The file has no rows below its header.')
  return { delimiter, rows }
}

function rowOf(record: string[], line: number, columns: Array<KeychainCsvColumn | null>): CsvRow {
  const cells = Object.fromEntries(KEYCHAIN_CSV_COLUMNS.map((column) => [column, ''])) as CsvRow['cells']
  let extraCells = false
  record.forEach((cell, index) => {
    const column = columns[index]
    if (column) cells[column] = unescapeFormula(cell.trim())
    else if (cell.trim() !== '') extraCells = true
  })
  return { line, cells, extraCells }
}
