import * as v from 'valibot'

/**
 * The keychain CSV file (import and export, one format): one row per key, the keychain's name repeated on each
 * of its keys' rows; a keychain without keys is one row with the key columns empty. Header names in English
 * (`KEYCHAIN_CSV_COLUMNS`, what the export writes) or French (`KEYCHAIN_CSV_HEADERS`); `,` or `;` between
 * fields, UTF-8 with or without a byte order mark, CRLF or LF. See docs/keychain-csv.md.
 */
export const KEYCHAIN_CSV_COLUMNS = [
  'keychain_name',
  'custodian_email',
  'key_name',
  'key_type',
  'tag_code',
  'home',
] as const
export type KeychainCsvColumn = (typeof KEYCHAIN_CSV_COLUMNS)[number]

/**
 * The header names each column is recognised by, compared without case, accents, spaces and punctuation
 * ("Nom du trousseau" = "nomdutrousseau").
 */
export const KEYCHAIN_CSV_HEADERS: Record<KeychainCsvColumn, readonly string[]> = {
  keychain_name: ['keychainname', 'keychain', 'trousseau', 'nomdutrousseau', 'nomtrousseau'],
  custodian_email: [
    'custodianemail',
    'custodian',
    'detenteur',
    'emaildudetenteur',
    'emaildetenteur',
    'courrieldudetenteur',
  ],
  key_name: ['keyname', 'key', 'cle', 'nomdelacle', 'nomcle'],
  key_type: ['keytype', 'type', 'typedecle', 'typecle'],
  tag_code: ['tagcode', 'tag', 'codedutag', 'codetag', 'etiquette', 'codeetiquette'],
  home: ['homehook', 'hook', 'emplacement', 'crochet', 'place', 'rangement'],
}

/**
 * A keychain's home in the file: its board's (or cabinet's) name and the hook's code, `Tableau A / A-12` (what
 * the export writes), or the hook's public id (what the export writes when a board's name is not unique in the
 * organization or holds ` / `), or the URL printed on the hook's label.
 */
export const HOME_SEPARATOR = ' / '

/** At most this many rows (keys) in one file. */
export const IMPORT_MAX_ROWS = 20_000
/**
 * At most this many empty rows (`;;;;`, skipped) besides: enough for what a spreadsheet leaves, few enough that a
 * file of empty lines costs no more to read than one of `IMPORT_MAX_ROWS` rows.
 */
export const IMPORT_MAX_EMPTY_ROWS = 20_000
/**
 * At most this many characters in one row (a legible row is a few hundred; a quote left open makes the rest of the
 * file one cell): a longer one refuses the file (`row_too_long`).
 */
export const IMPORT_MAX_ROW_CHARS = 10_000
/** At most this many characters of CSV text (about 4 MB): the request body limit of the import routes follows. */
export const IMPORT_MAX_CHARS = 4_000_000
/** Row errors listed in a preview at most (the count says how many there are). */
export const IMPORT_ERRORS_SHOWN = 500
/** Keychains shown in a preview's sample. */
export const IMPORT_SAMPLE_SIZE = 20

/** What can be wrong with one row (each with a readable English message; the UI words them in its language). */
export const IMPORT_ROW_ERRORS = [
  'keychain_name_required',
  'keychain_name_too_long',
  'keychain_exists',
  'custodian_invalid',
  'custodian_not_member',
  'custodian_conflict',
  'key_name_required',
  'key_name_too_long',
  'key_type_invalid',
  'tag_code_required',
  'tag_code_not_allowed',
  'tag_unknown',
  'tag_taken',
  'tag_repeated',
  'home_unknown',
  'home_ambiguous',
  'home_conflict',
  'text_invalid',
  'column_count',
] as const
export type ImportRowErrorCode = (typeof IMPORT_ROW_ERRORS)[number]

/**
 * Why a file cannot be read as a whole (`csv_invalid`, its `reason`; `column` or `line` say where): not CSV
 * (`line`), empty, no rows under the header, an unknown or repeated column (`column`), no keychain_name column,
 * more than `IMPORT_MAX_ROWS` rows or `IMPORT_MAX_EMPTY_ROWS` empty ones, a row longer than
 * `IMPORT_MAX_ROW_CHARS` (`line`). The message is English; the UI words each reason in its language.
 */
export const CSV_FILE_PROBLEMS = [
  'not_csv',
  'empty',
  'no_rows',
  'unknown_column',
  'repeated_column',
  'name_column_missing',
  'too_many_rows',
  'too_many_empty_rows',
  'row_too_long',
] as const
export type CsvFileProblem = (typeof CSV_FILE_PROBLEMS)[number]

/** The file's text as it was read (the browser reads it as UTF-8): `{ csv }`. */
export const ImportRequestSchema = v.object(
  {
    csv: v.pipe(
      v.string('The file is required.'),
      v.maxLength(IMPORT_MAX_CHARS, 'The file is too large (at most about 4 MB).'),
    ),
  },
  'The file is required.',
)

/** The commit's headers: an Idempotency-Key (a UUID), so a double submit imports once. */
export const ImportHeadersSchema = v.object(
  {
    'idempotency-key': v.pipe(
      v.string('The Idempotency-Key header is required.'),
      v.uuid('The Idempotency-Key header must be a UUID.'),
    ),
  },
  'The Idempotency-Key header is required.',
)

const ImportRowErrorSchema = v.object({
  /** The file's line the row ends on (1 is the header). */
  line: v.number(),
  /** The column at fault (null: the row as a whole). */
  column: v.nullable(v.picklist(KEYCHAIN_CSV_COLUMNS)),
  code: v.picklist(IMPORT_ROW_ERRORS),
  message: v.string(),
  /** The cell as written (trimmed, cut at 120 characters). */
  value: v.string(),
})
export type ImportRowError = v.InferOutput<typeof ImportRowErrorSchema>

export const ImportPreviewSchema = v.object({
  delimiter: v.picklist([',', ';']),
  /** Data rows read (the header and blank rows not counted). */
  rows: v.number(),
  keychains: v.number(),
  keys: v.number(),
  /** Keys that attach a tag. */
  tags: v.number(),
  errorCount: v.number(),
  /** The first `IMPORT_ERRORS_SHOWN` errors, in file order. */
  errors: v.array(ImportRowErrorSchema),
  /** The first keychains as they would be created. */
  sample: v.array(
    v.object({
      line: v.number(),
      name: v.string(),
      custodianEmail: v.nullable(v.string()),
      /** Its home as the file wrote it (`HOME_SEPARATOR`), null for none. */
      home: v.optional(v.nullable(v.string())),
      keys: v.array(
        v.object({ name: v.string(), type: v.picklist(['TAG', 'KEY']), tagCode: v.nullable(v.string()) }),
      ),
    }),
  ),
})
export type ImportPreview = v.InferOutput<typeof ImportPreviewSchema>

export const ImportResultSchema = v.object({
  keychains: v.number(),
  keys: v.number(),
  tags: v.number(),
})
export type ImportResult = v.InferOutput<typeof ImportResultSchema>
