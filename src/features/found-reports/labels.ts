import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { FoundReportStatus } from '../../../contract/found-reports.ts'
import type { BadgeTone } from '../../ui/Badge.tsx'

export const FOUND_REPORT_STATUS_LABELS: Record<FoundReportStatus, MessageDescriptor> = {
  NEW: msg`New`,
  CONTACTED: msg`Contacted`,
  RESOLVED: msg`Resolved`,
}

export const FOUND_REPORT_STATUS_TONES: Record<FoundReportStatus, BadgeTone> = {
  NEW: 'warning',
  CONTACTED: 'brand',
  RESOLVED: 'success',
}
