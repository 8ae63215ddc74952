import * as v from 'valibot'

/**
 * A stored found-key report's status: NEW when a finder wrote, CONTACTED once the organization replied (or said
 * it did), RESOLVED when the keys are back. Any status may follow any other: staff correct a wrong click.
 */
export const FOUND_REPORT_STATUSES = ['NEW', 'CONTACTED', 'RESOLVED'] as const
export type FoundReportStatus = (typeof FOUND_REPORT_STATUSES)[number]
export const FoundReportStatusSchema = v.picklist(FOUND_REPORT_STATUSES, 'Unknown status.')
