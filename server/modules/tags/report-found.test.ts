import { describe, expect, it } from 'vitest'
import { makeTags, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { newPublicId } from './public-id.ts'
import {
  FOUND_REPORTS_PER_IP,
  FOUND_REPORTS_PER_REPORTER,
  FOUND_REPORTS_PER_TAG,
  reporterEmailKey,
} from './report-found.ts'

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
    // The button opens the report in the app (kept, with its status), not the tag's public page.
    expect(english.text).toMatch(new RegExp(`${t.config.publicUrl}/en/app/found-reports/[0-9a-f-]{36}`))
    expect(english.html).toContain('&lt;b&gt;ce matin&lt;/b&gt;')
    expect(t.mail.last(frenchAdmin.email)!.subject).toBe(
      `Quelqu’un a trouvé les clés de l’étiquette ${tag!.code}`,
    )
    expect(t.mail.to(manager.email)).toHaveLength(0)
    expect(t.mail.to(disabledAdmin.email)).toHaveLength(0)
  })

  it("records in the organization's ledger that a finder wrote about the tag, not what nor how to reach them", async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const [tag] = await makeTags(t, organization.id)
    expect((await t.post(`/api/tags/${tag!.publicId}/found-reports`, { json: REPORT })).status).toBe(202)
    const response = await t.get('/api/activity?kind=found_report.received', { cookie: admin.cookie })
    const [entry, ...more] = (await response.json()).data
    expect(more).toEqual([])
    expect(entry).toMatchObject({ actor: null, tagIds: [tag!.id], keychainIds: [], payload: {} })
    expect(JSON.stringify(entry)).not.toContain('06 12 34 56 78')
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

  const report = (publicId: string, ip: string, json: { message: string; contact: string } = REPORT) =>
    t.post(`/api/tags/${publicId}/found-reports`, { ip, json }).then((response) => response.status)

  it('limits each reporter per tag, so a few addresses cannot use up the tag’s allowance for everyone', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const [tag] = await makeTags(t, organization.id)
    // Three addresses write as much as their network allows (under the per-IP limit)...
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      const answers = []
      for (let i = 0; i < FOUND_REPORTS_PER_IP.limit; i++) answers.push(await report(tag!.publicId, ip))
      expect(answers).toEqual([
        ...Array(FOUND_REPORTS_PER_REPORTER.limit).fill(202),
        ...Array(FOUND_REPORTS_PER_IP.limit - FOUND_REPORTS_PER_REPORTER.limit).fill(429),
      ])
    }
    // ...and the real finder still gets through.
    expect(await report(tag!.publicId, '203.0.113.9')).toBe(202)
    expect(t.mail.to(admin.email)).toHaveLength(3 * FOUND_REPORTS_PER_REPORTER.limit + 1)
  })

  it('counts one reporter by their e-mail address too, whatever network they write from', async () => {
    const { organization } = await organizationWithAdmin(t)
    const [tag] = await makeTags(t, organization.id)
    const from = (contact: string) => ({ message: 'Trouvé.', contact })
    expect(await report(tag!.publicId, '192.0.2.10', from('Jean, jean.dupont@example.com'))).toBe(202)
    expect(await report(tag!.publicId, '192.0.2.11', from('Jean.Dupont+keys@Example.COM'))).toBe(202)
    const over = await t.post(`/api/tags/${tag!.publicId}/found-reports`, {
      ip: '192.0.2.12',
      json: from('<jean.dupont@example.com>'),
    })
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    // Someone else, from another network, with a phone number: a reporter of their own.
    expect(await report(tag!.publicId, '192.0.2.13', from('06 12 34 56 78'))).toBe(202)
    // The limit is per tag: the same person may write about another tag they found.
    const [other] = await makeTags(t, organization.id)
    expect(await report(other!.publicId, '192.0.2.14', from('jean.dupont@example.com'))).toBe(202)
  })

  it('gives the tag’s allowance to distinct reporters: their second messages do not count against it', async () => {
    const { organization } = await organizationWithAdmin(t)
    const [tag] = await makeTags(t, organization.id)
    const ips = Array.from({ length: FOUND_REPORTS_PER_TAG.limit }, (_, i) => `100.64.7.${i + 1}`)
    for (const ip of ips) expect(await report(tag!.publicId, ip)).toBe(202)
    // Each of them may still write their second message...
    for (const ip of ips.slice(0, 3)) expect(await report(tag!.publicId, ip)).toBe(202)
    // ...but one reporter more than the allowance is refused for the day.
    expect(await report(tag!.publicId, '100.64.8.1')).toBe(429)
  })

  it('reads the e-mail address of a contact as one mailbox, and finds none in a phone number', () => {
    const key = reporterEmailKey('jean.dupont@example.com')
    expect(key).not.toBeNull()
    expect(reporterEmailKey('Appelez Jean <Jean.Dupont+trousseau@EXAMPLE.com.>')).toBe(key)
    expect(reporterEmailKey('jean.dupont@example.org')).not.toBe(key)
    expect(reporterEmailKey('06 12 34 56 78')).toBeNull()
    expect(reporterEmailKey('jean.dupont@example.com')).not.toContain('example')
  })
})
