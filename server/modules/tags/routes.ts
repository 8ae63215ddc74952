import { tagEndpoints } from '../../../contract/endpoints/tags.ts'
import { DEFAULT_LOCALE } from '../../../contract/locale.ts'
import type { TagLanding } from '../../../contract/tags.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { clientIp } from '../../http/client-ip.ts'
import { requestedLocale } from '../../http/request-locale.ts'
import { tagLanding } from './landing.ts'
import { listTags } from './list.ts'
import { noticeLostTagScan, orderTagReplacement, setTagLost } from './lost.ts'
import { reportFoundTag } from './report-found.ts'

export function tagRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      ...tagEndpoints.list,
      summary: 'Tags of the selected organization by code (paginated; `use=free|used` or `unused=true`, `q`)',
      access: inSelectedOrganization('read__tag'),
      responses: { 200: { description: 'A page of tags' } },
    },
    async (c, { organization, query }) =>
      c.json(await listTags(deps, organization.organizationId, query), 200),
  )

  api.route(
    {
      ...tagEndpoints.landing,
      summary:
        "A tag's landing: the member view for its organization, the neutral 'found' view for anyone else",
      access: 'public',
      responses: { 200: { description: 'The landing' } },
    },
    async (c, { params, session }) => {
      const landing = await tagLanding(deps, params.publicId, session)
      // Someone outside the organization opened a lost tag's QR: its admins are told (hourly at most).
      if (landing.view === 'found' && landing.lostTagId)
        await noticeLostTagScan(deps, { id: landing.lostTagId }, { retired: landing.retired === true })
      const { lostTagId: _, retired: __, ...shown } = landing
      return c.json(shown as TagLanding, 200)
    },
  )

  api.route(
    {
      ...tagEndpoints.reportFound,
      summary:
        "A finder's message to the organization owning the tag (kept, and mailed to its admins); replies come in the page's language (`Accept-Language`)",
      access: 'public',
      responses: {
        202: { description: 'Passed on to the organization' },
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
        locale: requestedLocale(c.req.header('accept-language')) ?? DEFAULT_LOCALE,
      })
      return c.json({ status: 'sent' as const }, 202)
    },
  )

  for (const [endpoint, lost] of [
    [tagEndpoints.declareLost, true],
    [tagEndpoints.undoLost, false],
  ] as const) {
    api.route(
      {
        ...endpoint,
        summary: lost
          ? 'Declare a tag of the selected organization lost: scans answer `lost`, its admins are told of each (hourly)'
          : 'Undo a lost declaration: the tag resolves to its keychain again',
        access: inSelectedOrganization('update__tag'),
        responses: { 200: { description: 'The tag and who declared it lost' } },
      },
      async (c, { organization, session, params }) =>
        c.json(
          await setTagLost(deps, { scope: organization, userId: session.user.id, tagId: params.id, lost }),
          200,
        ),
    )
  }

  api.route(
    {
      ...tagEndpoints.orderReplacement,
      summary: "Put a reprint of the tag (same code, new QR once paid) into the caller's cart",
      access: inSelectedOrganization('create__order'),
      responses: {
        201: { description: 'In the cart (the same line when already there)' },
        409: { description: '`conflict`: the cart is full' },
      },
    },
    async (c, { organization, session, params }) =>
      c.json(
        await orderTagReplacement(deps, { scope: organization, userId: session.user.id, tagId: params.id }),
        201,
      ),
  )
}
