import { labelEndpoints } from '../../../contract/endpoints/labels.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { renderLabelsPdf } from './pdf.ts'
import { selectLabels } from './selection.ts'

/** Reprints of the selected organization's existing tags, for whoever reads its tags. */
export function labelRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database
  const responses = {
    400: {
      description:
        '`validation_failed`: unknown format or no tag chosen; `label_selection_empty`: no tag matches; `label_selection_too_large`: more than 1,000 tags',
    },
    404: { description: 'A chosen tag is not one of the organization’s' },
  }

  api.route(
    {
      ...labelEndpoints.sheet,
      summary: 'The labels of chosen tags (ids, or the tags list’s filter) for the browser’s print view',
      access: inSelectedOrganization('read__tag'),
      responses: {
        200: { description: 'The format and each label’s code, name, URL and colours' },
        ...responses,
      },
    },
    async (c, { organization, body }) => {
      const labels = await selectLabels(
        db,
        organization.organizationId,
        body.selection,
        deps.config.publicUrl,
      )
      return c.json({ format: body.format, labels }, 200)
    },
  )

  api.route(
    {
      ...labelEndpoints.pdf,
      summary:
        'Chosen tags printed again as a PDF at a label format’s real size (A4 sheet, Avery L7160, Brother 62 × 29 mm, Dymo 11352)',
      access: inSelectedOrganization('read__tag'),
      responses: { 200: { description: 'application/pdf' }, ...responses },
    },
    async (c, { organization, body }) => {
      const labels = await selectLabels(
        db,
        organization.organizationId,
        body.selection,
        deps.config.publicUrl,
      )
      const pdf = await renderLabelsPdf(body.format, labels, { withName: body.withName })
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="tags-${body.format}.pdf"`,
        'Cache-Control': 'private, no-store',
      })
    },
  )
}
