import { describe, expect, it } from 'vitest'
import { makeTags, organizationWithAdmin, signedInMember } from '../../test/fixtures.ts'
import { setupTestApp } from '../../test/harness.ts'
import { FOUND_REPORTS_PER_IP } from './found-reports.ts'
import { newPublicId } from './public-id.ts'

const t = setupTestApp()
const REPORT = { message: 'Trouvé devant la gare <b>ce matin</b>.', contact: '06 12 34 56 78' }

describe('POST /api/tags/{publicId}/found-reports', () => {
  it("mails every active admin of the tag's organization in their own language, signed out", async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Agence Lumière')
    await t.patch('/api/profile', { cookie: admin.cookie, json: { locale: 'en' } })
    const frenchAdmin = await signedInMember(t, organization.id, 'ADMIN')
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const disabledAdmin = await signedInMember(t, organization.id, 'ADMIN', { status: 'DISABLED' })
    const [tag] = await makeTags(t, organization.id)
    const response = await t.post(`/api/tags/${tag!.publicId}/found-reports`, { json: REPORT })
    expect(response.status).toBe(202)
    expect(await response.json()).toEqual({ status: 'sent' })

    const english = t.mail.last(admin.email)!
    expect(english.subject).toBe(`Someone found the keys of tag ${tag!.code}`)
    expect(english.text).toContain('Trouvé devant la gare <b>ce matin</b>.')
    expect(english.text).toContain('How to reach them: 06 12 34 56 78')
    expect(english.text).toContain(`${t.config.publicUrl}/en/tags/${tag!.publicId}`)
    expect(english.html).toContain('&lt;b&gt;ce matin&lt;/b&gt;')
    expect(t.mail.last(frenchAdmin.email)!.subject).toBe(
      `Quelqu’un a trouvé les clés de l’étiquette ${tag!.code}`,
    )
    expect(t.mail.to(manager.email)).toHaveLength(0)
    expect(t.mail.to(disabledAdmin.email)).toHaveLength(0)
  })

  it('answers 400 for a missing message or contact, 404 for an unknown tag', async () => {
    const { organization } = await organizationWithAdmin(t)
    const [tag] = await makeTags(t, organization.id)
    const missing = await t.post(`/api/tags/${tag!.publicId}/found-reports`, {
      json: { message: ' ', contact: 'x' },
    })
    expect(missing.status).toBe(400)
    expect((await missing.json()).error.message).toBe('Message is required.')
    expect(
      (await t.post(`/api/tags/${tag!.publicId}/found-reports`, { json: { message: 'x' } })).status,
    ).toBe(400)
    expect((await t.post(`/api/tags/${newPublicId()}/found-reports`, { json: REPORT })).status).toBe(404)
  })

  it('limits reports per IP (429 with Retry-After), IPv6 by /64', async () => {
    const { organization } = await organizationWithAdmin(t)
    const tags = await makeTags(t, organization.id, FOUND_REPORTS_PER_IP.limit + 1)
    for (let i = 0; i < FOUND_REPORTS_PER_IP.limit; i++) {
      const ip = `2001:db8:5:5::${i + 1}`
      expect(
        (await t.post(`/api/tags/${tags[i]!.publicId}/found-reports`, { ip, json: REPORT })).status,
      ).toBe(202)
    }
    const over = await t.post(`/api/tags/${tags.at(-1)!.publicId}/found-reports`, {
      ip: '2001:db8:5:5::ff',
      json: REPORT,
    })
    expect(over.status).toBe(429)
    expect((await over.json()).error.code).toBe('rate_limited')
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})
