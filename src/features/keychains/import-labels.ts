import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { ApiErrorBody } from '../../../contract/errors.ts'
import {
  CSV_FILE_PROBLEMS,
  type CsvFileProblem,
  IMPORT_MAX_EMPTY_ROWS,
  IMPORT_MAX_ROW_CHARS,
  IMPORT_MAX_ROWS,
  type ImportRowErrorCode,
  KEYCHAIN_CSV_COLUMNS,
  type KeychainCsvColumn,
} from '../../../contract/keychain-import.ts'

/** The file's columns as the import screen names them (the file's own header names stay as written). */
export const CSV_COLUMN_LABELS: Record<KeychainCsvColumn, MessageDescriptor> = {
  keychain_name: msg`Keychain name`,
  custodian_email: msg`Custodian e-mail`,
  key_name: msg`Key name`,
  key_type: msg`Key type`,
  tag_code: msg`Tag code`,
  home: msg`Home hook`,
}

/** What is wrong with a row, in the reader's language. */
export const IMPORT_ERROR_LABELS: Record<ImportRowErrorCode, MessageDescriptor> = {
  keychain_name_required: msg`The keychain name is required.`,
  keychain_name_too_long: msg`The keychain name is too long (at most 120 characters).`,
  keychain_exists: msg`A keychain of this name already exists in the organization.`,
  custodian_invalid: msg`The custodian e-mail is not a valid address.`,
  custodian_not_member: msg`The custodian must be a member of the organization.`,
  custodian_conflict: msg`Another row gives this keychain a different custodian.`,
  key_name_required: msg`The key name is required.`,
  key_name_too_long: msg`The key name is too long (at most 120 characters).`,
  key_type_invalid: msg`The key type must be KEY or TAG.`,
  tag_code_required: msg`A TAG key needs a tag code.`,
  tag_code_not_allowed: msg`A KEY has no tag code (use the type TAG).`,
  tag_unknown: msg`No tag of the organization has this code.`,
  tag_taken: msg`This tag is already on a key.`,
  tag_repeated: msg`This tag code is already on an earlier row.`,
  home_unknown: msg`No hook of the organization is this home: write the board’s name and the hook’s code, as “Board A / A-12”.`,
  home_ambiguous: msg`Several boards have this name: write the hook’s label instead (as the export does).`,
  home_conflict: msg`Another row gives this keychain a different home.`,
  text_invalid: msg`Line breaks, tabs and other control characters are not allowed here.`,
  column_count: msg`The row has more cells than the header has columns.`,
}

/**
 * Why the file as a whole cannot be read (`csv_invalid`), in the reader's language, from the answer's `reason`,
 * `column` and `line`; null for a reason this version does not know (the server's English message then shows).
 */
export function csvFileProblem(details: ApiErrorBody['error'] | null): MessageDescriptor | null {
  const reason = details?.reason as CsvFileProblem | undefined
  if (!reason || !CSV_FILE_PROBLEMS.includes(reason)) return null
  const column = details?.column ?? ''
  const line = details?.line
  const columns = KEYCHAIN_CSV_COLUMNS.join(', ')
  const max = IMPORT_MAX_ROWS
  const maxEmpty = IMPORT_MAX_EMPTY_ROWS
  const longest = IMPORT_MAX_ROW_CHARS
  switch (reason) {
    case 'not_csv':
      return line === undefined
        ? msg`The file is not CSV: save it from your spreadsheet as CSV.`
        : msg`The file stops being CSV at line ${line}: save it from your spreadsheet as CSV.`
    case 'empty':
      return msg`The file is empty: it needs a header line and one row per key.`
    case 'no_rows':
      return msg`The file has no rows below its header.`
    case 'unknown_column':
      return msg`The header has an unknown column “${column}”: the columns are ${columns}.`
    case 'repeated_column':
      return msg`The header names the same column twice (“${column}”).`
    case 'name_column_missing':
      return msg`The header must name the column keychain_name (the columns are ${columns}).`
    case 'too_many_rows':
      return msg`The file has more than ${max} rows: split it into several files.`
    case 'too_many_empty_rows':
      return msg`The file has more than ${maxEmpty} empty rows: delete them in the spreadsheet, then save it as CSV again.`
    case 'row_too_long':
      return line === undefined
        ? msg`The file has a row longer than ${longest} characters: check that every quote opening a cell is closed.`
        : msg`The row at line ${line} is longer than ${longest} characters: check that every quote opening a cell is closed.`
  }
}
