/** The activity export's columns, in order (the CSV's header). */
export const ACTIVITY_CSV_COLUMNS = [
  'seq',
  'kind',
  'server_time',
  'client_time',
  'from_queue',
  'actor_email',
  'actor_name',
  'keychain_ids',
  'tag_ids',
  'transfer_ids',
  /** The payload as the chain's digest covers it (`jsonb` text). */
  'details',
  /** The keychains' names now (or the name the entry recorded, once gone) and the tags' codes, `; ` apart. */
  'keychain_names',
  'tag_codes',
  'actor_id',
  /** The entry's chain hash: `npm run verify:activity` recomputes it from the columns before. */
  'hash',
] as const

/** The kind of the export's last row: not an entry, the log's signed head when the export began (`details`). */
export const SIGNED_HEAD_ROW = 'ledger.signed_head'
