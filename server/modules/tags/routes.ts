import {
  FoundReportAcceptedSchema,
  FoundReportSchema,
  TagLandingSchema,
  TagListQuerySchema,
  TagPageSchema,
  TagPublicParamsSchema,
} from '../../../contract/tags.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { clientIp } from '../../http/client-ip.ts'
import { reportFoundTag } from './found-reports.ts'
import { tagLanding } from './landing.ts'
import { listTags } from './list.ts'

export function tagRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      method: 'get',
      path: '/tags',
      summary: 'Tags of the selected organization by code (paginated; `unused=true`, `q`)',
      access: inSelectedOrganization('read__tag'),
      query: TagListQuerySchema,
      responses: { 200: { description: 'A page of tags', schema: TagPageSchema } },
    },
    async (c, { organization, query }) =>
      c.json(await listTags(deps, organization.organizationId, query), 200),
  )

  api.route(
    {
      method: 'get',
      path: '/tags/:publicId',
      summary:
        "A tag's landing: the member view for its organization, the neutral 'found' view for anyone else",
      access: 'public',
      params: TagPublicParamsSchema,
      responses: { 200: { description: 'The landing', schema: TagLandingSchema } },
    },
    async (c, { params, session }) => c.json(await tagLanding(deps, params.publicId, session), 200),
  )

  api.route(
    {
      method: 'post',
      path: '/tags/:publicId/found-reports',
      summary: "A finder's message to the organization owning the tag (mailed to its admins)",
      access: 'public',
      params: TagPublicParamsSchema,
      body: FoundReportSchema,
      responses: {
        202: { description: 'Passed on to the organization', schema: FoundReportAcceptedSchema },
        429: {
          description:
            'Too many messages from this network, from this reporter about this tag, or for this tag',
        },
      },
    },
    async (c, { params, body }) => {
      await reportFoundTag(deps, {
        publicId: params.publicId,
        report: body,
        ip: clientIp(c, deps.config.trustProxy),
      })
      return c.json({ status: 'sent' as const }, 202)
    },
  )
}
