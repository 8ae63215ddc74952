// An old QR code, replaced after its tag was lost: opening it shows the finder's page to anyone (members too),
// never the keychain; the finder can report through it; the organization's admins are told it was seen.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { placeOrder, settleLocally } from '../../../tests/server/commerce.ts'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { transferWorld } from '../../../tests/server/transfers.ts'
import { foundReports, tags } from '../../db/schema.ts'

const t = setupTestApp()

/** A tag lost, replaced and paid for: its first QR is retired. */
async function replacedTag() {
  const world = await transferWorld(t)
  const oldPublicId = world.tag.publicId
  await t.put(`/api/tags/${world.tag.id}/lost`, { cookie: world.admin.cookie })
  await t.post(`/api/tags/${world.tag.id}/replacements`, { cookie: world.admin.cookie })
  const order = await placeOrder(t, world.admin.cookie, [])
  expect((await settleLocally(t, world.admin.cookie, order.id, 'pay')).status).toBe(303)
  const [row] = await t.db.select().from(tags).where(eq(tags.id, world.tag.id))
  expect(row!.publicId).not.toBe(oldPublicId)
  return { ...world, oldPublicId, newPublicId: row!.publicId }
}

describe('the QR code a replacement retired', () => {
  it("shows the finder's page to anyone, a member of the organization included, and the new QR the tag", async () => {
    const { admin, oldPublicId, newPublicId, tag, organization } = await replacedTag()
    for (const cookie of [undefined, admin.cookie]) {
      const landing = await t.get(`/api/tags/${oldPublicId}`, cookie ? { cookie } : {})
      expect(landing.status).toBe(200)
      expect(await landing.json()).toEqual({
        view: 'found',
        code: tag.code,
        organization: { name: organization.name },
      })
    }
    const current = await (await t.get(`/api/tags/${newPublicId}`, { cookie: admin.cookie })).json()
    expect(current).toMatchObject({ view: 'member', tag: { code: tag.code } })
    expect((await t.get(`/api/tags/${'a'.repeat(20)}`)).status).toBe(404)
  })

  it('takes a found report for its tag, and tells the admins it was seen', async () => {
    const { oldPublicId, tag, organization, admin } = await replacedTag()
    t.mail.clear()
    await t.get(`/api/tags/${oldPublicId}`)
    await t.runJobs()
    expect(t.mail.to(admin.email).map((mail) => mail.subject)).toEqual([expect.stringContaining(tag.code)])
    const reported = await t.post(`/api/tags/${oldPublicId}/found-reports`, {
      json: { message: 'Trouvé sur un banc.', contact: '06 12 34 56 78' },
    })
    expect(reported.status).toBe(202)
    const stored = await t.db.select().from(foundReports).where(eq(foundReports.tagId, tag.id))
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ organizationId: organization.id, message: 'Trouvé sur un banc.' })
  })

  it("answers a scan from another organization with the old QR's id, never the reprint's", async () => {
    const { oldPublicId } = await replacedTag()
    const stranger = await organizationWithAdmin(t, 'Ailleurs')
    const answer = await t.post('/api/scans', {
      cookie: stranger.admin.cookie,
      json: { value: oldPublicId },
      headers: { 'idempotency-key': randomUUID() },
    })
    expect(await answer.json()).toMatchObject({ status: 'foreign', publicId: oldPublicId })
  })

  it('leaves a well-formed id that was never a QR code unknown', async () => {
    const { admin } = await replacedTag()
    const answer = await t.post('/api/scans', {
      cookie: admin.cookie,
      json: { value: `${t.config.publicUrl}/tags/${'b'.repeat(20)}` },
      headers: { 'idempotency-key': randomUUID() },
    })
    expect(answer.status).toBe(201)
    expect(await answer.json()).toMatchObject({ status: 'unknown' })
  })
})
