import type { MessageDescriptor } from '../../i18n/translator.ts'

/** The stocktake's texts read outside the app: the admins' mails, the report (CSV and PDF). */
export const stocktakeTexts = {
  wholeOrganization: /*i18n*/ { id: 'stocktake.scope.whole', message: 'the whole organization' },
  missingSubject: /*i18n*/ {
    id: 'stocktake.mail.missing.subject',
    message: 'Stocktake of {scope}: {count, plural, one {# keychain} other {# keychains}} missing',
  },
  missingBody: /*i18n*/ {
    id: 'stocktake.mail.missing.body',
    message:
      'The stocktake of {scope} ({organization}) closed on {date} did not find {count, plural, one {this keychain} other {these keychains}}:',
  },
  missingLine: /*i18n*/ { id: 'stocktake.mail.missing.line', message: '{keychain}, expected on {hook}' },
  missingMore: /*i18n*/ {
    id: 'stocktake.mail.missing.more',
    message: '…and {count, plural, one {# more} other {# more}}: see the report.',
  },
  dueSubject: /*i18n*/ { id: 'stocktake.mail.due.subject', message: 'Stocktake due: {place}' },
  dueBody: /*i18n*/ {
    id: 'stocktake.mail.due.body',
    message: 'The recurring stocktake of {place} ({organization}) is due on {date}.',
  },
  overdueSubject: /*i18n*/ { id: 'stocktake.mail.overdue.subject', message: 'Stocktake overdue: {place}' },
  overdueBody: /*i18n*/ {
    id: 'stocktake.mail.overdue.body',
    message: 'The recurring stocktake of {place} ({organization}) was due on {date} and has not been done.',
  },
  button: /*i18n*/ { id: 'stocktake.mail.button', message: 'Open the stocktakes' },
  // The report (CSV columns, PDF).
  reportTitle: /*i18n*/ { id: 'stocktake.report.title', message: 'Stocktake of {scope}' },
  reportStatusOpen: /*i18n*/ { id: 'stocktake.report.open', message: 'Open, started on {date}' },
  reportStatusClosed: /*i18n*/ {
    id: 'stocktake.report.closed',
    message: 'Started on {started}, closed on {closed} by {person}',
  },
  reportCounts: /*i18n*/ {
    id: 'stocktake.report.counts',
    message:
      'Expected {expected} · found {found} · misplaced {misplaced} · missing {missing} · unexpected {unexpected}',
  },
  columnSection: /*i18n*/ { id: 'stocktake.report.column.section', message: 'Result' },
  columnKeychain: /*i18n*/ { id: 'stocktake.report.column.keychain', message: 'Keychain' },
  columnTags: /*i18n*/ { id: 'stocktake.report.column.tags', message: 'Tags' },
  columnExpected: /*i18n*/ { id: 'stocktake.report.column.expected', message: 'Expected on' },
  columnFound: /*i18n*/ { id: 'stocktake.report.column.found', message: 'Found on' },
  columnWhen: /*i18n*/ { id: 'stocktake.report.column.when', message: 'When' },
  columnWho: /*i18n*/ { id: 'stocktake.report.column.who', message: 'By' },
  columnValue: /*i18n*/ { id: 'stocktake.report.column.value', message: 'Scanned value' },
  FOUND: /*i18n*/ { id: 'stocktake.report.state.found', message: 'Found' },
  MISPLACED: /*i18n*/ { id: 'stocktake.report.state.misplaced', message: 'Misplaced' },
  MISSING: /*i18n*/ { id: 'stocktake.report.state.missing', message: 'Missing' },
  PENDING: /*i18n*/ { id: 'stocktake.report.state.pending', message: 'Not seen yet' },
  UNEXPECTED: /*i18n*/ { id: 'stocktake.report.state.unexpected', message: 'Unexpected' },
  UNKNOWN: /*i18n*/ { id: 'stocktake.report.state.unknown', message: 'Unknown to the organization' },
  LATE: /*i18n*/ { id: 'stocktake.report.state.late', message: 'Scanned after the close' },
  noHook: /*i18n*/ { id: 'stocktake.report.noHook', message: 'no hook' },
  nobody: /*i18n*/ { id: 'stocktake.report.nobody', message: 'someone no longer here' },
} satisfies Record<string, MessageDescriptor>
