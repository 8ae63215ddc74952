import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMailbox } from '../../../tests/e2e/mailbox.ts'
import { makeTags, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { createTestApp, type TestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { smtpMailer } from '../../mail/mailer.ts'

const MAIL_FROM = 'Trousseau <no-reply@trousseau.example.test>'

let mailbox: Awaited<ReturnType<typeof startMailbox>>
let t: TestApp
let mailer: ReturnType<typeof smtpMailer>
beforeAll(async () => {
  mailbox = await startMailbox()
  mailer = smtpMailer(mailbox.url, MAIL_FROM)
  t = await createTestApp({ mailer })
})
afterAll(async () => {
  await t?.close()
  await mailer?.close()
  await mailbox?.close()
})

/** The header block of a raw message, lines unfolded. */
const headersOf = (raw: string) => raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ')

/** The Subject header, its RFC 2047 encoded words (`=?UTF-8?Q?…?=`) decoded. */
function subjectOf(headers: string): string {
  const value = /^Subject: (.*)$/m.exec(headers)?.[1] ?? ''
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_, text: string) =>
      decodeURIComponent(text.replaceAll('_', ' ').replace(/=([0-9A-F]{2})/gi, '%$1')),
    )
}

describe('a reply to a finder, over real SMTP', () => {
  it('reaches the address the finder left, from the server’s address, with no Reply-To and no staff address', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Agence Lumière')
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const [tag] = await makeTags(t, organization.id)
    const finder = uniqueEmail('finder')
    const reported = await t.post(`/api/tags/${tag!.publicId}/found-reports`, {
      json: { message: 'Trouvées près du parc.', contact: `Camille ${finder}` },
      headers: { 'accept-language': 'en-GB' },
    })
    expect(reported.status).toBe(202)
    // The admin's notice went through SMTP too, without the finder's address.
    const notice = await mailbox.nextMailTo(admin.email)
    expect(notice.text).toContain('Camille ')
    expect(notice.raw).not.toContain(finder)

    const [report] = (await (await t.get('/api/found-reports', { cookie: manager.cookie })).json()).data
    const before = mailbox.received.length
    const sent = await t.post(`/api/found-reports/${report.id}/replies`, {
      cookie: manager.cookie,
      json: { message: 'Thank you, Camille! We will pick them up at 6 pm.' },
    })
    expect(sent.status).toBe(201)
    expect(await sent.text()).not.toContain(finder)

    const mail = await mailbox.nextMailTo(finder, before)
    expect(mail.to).toEqual([finder])
    const headers = headersOf(mail.raw)
    expect(headers).toContain(`From: ${MAIL_FROM}`)
    expect(headers).not.toMatch(/^Reply-To:/im)
    expect(subjectOf(headers)).toBe('Agence Lumière replied about the keys you found')
    expect(mail.text).toContain('Thank you, Camille! We will pick them up at 6 pm.')
    expect(mail.text).toContain(`/en/tags/${tag!.publicId}`)
    // Neither staff member's address travels to the finder.
    for (const staff of [manager.email, admin.email]) expect(mail.raw).not.toContain(staff)
  })
})
