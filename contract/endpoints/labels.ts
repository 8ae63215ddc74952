import { LabelPrintSchema, LabelSheetSchema } from '../labels.ts'
import { endpoint } from './endpoint.ts'

/**
 * Reprints of existing tags on label media. POST because a selection holds up to 1,000 ids; neither writes
 * anything. `pdf` answers `application/pdf`; the other the labels for the browser's print view.
 */
export const labelEndpoints = {
  sheet: endpoint({
    method: 'post',
    path: '/tag-labels',
    body: LabelPrintSchema,
    response: LabelSheetSchema,
  }),
  pdf: endpoint({ method: 'post', path: '/tag-labels/pdf', body: LabelPrintSchema }),
}
