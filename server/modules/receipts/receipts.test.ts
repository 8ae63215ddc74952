import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMailbox } from '../../../tests/e2e/mailbox.ts'
import { TEST_EPOCH, TestClock } from '../../../tests/server/clock.ts'
import { signedInMember } from '../../../tests/server/fixtures.ts'
import { createTestApp, setupTestAppAtEpoch, type TestApp } from '../../../tests/server/harness.ts'
import { jpegWith } from '../../../tests/server/receipt-pdf-fixture.ts'
import { scheduledTransfer, transferWorld } from '../../../tests/server/transfers.ts'
import { keychains, organizationEvents, transferPickups, transferReceipts, users } from '../../db/schema.ts'
import { smtpMailer } from '../../mail/mailer.ts'
import { jpegSize } from './photo.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

/** A real 1 × 1 baseline JPEG (125 bytes). */
const TINY_JPEG =
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA='
const jpegDataUrl = (bytes: Buffer) => `data:image/jpeg;base64,${bytes.toString('base64')}`
const PHOTO = jpegDataUrl(Buffer.from(TINY_JPEG, 'base64'))
const SIGNATURE = 'M10 150 L40 60 L80 140 L120 50 M150 100 L300 100'

const pickupWith = (app: TestApp, cookie: string, transferId: string, json: unknown, key = randomUUID()) =>
  app.post(`/api/transfers/${transferId}/pickups`, {
    cookie,
    json,
    headers: { 'idempotency-key': key },
  })

/** The text of every page of a PDF, read by Mozilla's pdf.js (an independent reader). */
async function pdfText(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 })
    .promise
  const texts: string[] = []
  for (let n = 1; n <= document.numPages; n += 1) {
    const content = await (await document.getPage(n)).getTextContent()
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '))
  }
  await document.destroy()
  return texts.join('\n').replace(/\s+/g, ' ')
}

/** A transfer to the CONTACT (Zoé Martin, English) of the keychain "Cave" held by the MEMBER (French). */
/** The headers of the mail's `application/pdf` part, unfolded, by lower-case name. */
function attachmentHeaders(raw: string): Record<string, string> {
  const start = raw.indexOf('Content-Type: application/pdf')
  if (start < 0) throw new Error('no application/pdf part in the mail')
  const part = raw.slice(start)
  const block = part.slice(0, part.search(/\r?\n\r?\n/))
  const headers: Record<string, string> = {}
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  return headers
}

/** `attachment; filename="a"; filename*=UTF-8''b` → { value: 'attachment', filename: 'a', 'filename*': "UTF-8''b" }. */
function parameters(header: string): Record<string, string> {
  const [value, ...rest] = header.split(/;\s*/)
  const out: Record<string, string> = { value: value! }
  for (const each of rest) {
    const equals = each.indexOf('=')
    out[each.slice(0, equals)] = each.slice(equals + 1).replace(/^"(.*)"$/, '$1')
  }
  return out
}

async function world(app: TestApp) {
  const w = await scheduledTransfer(app)
  await app.db
    .update(users)
    .set({ firstName: 'Zoé', lastName: 'Martin', locale: 'en' })
    .where(eq(users.id, w.contact.id))
  await app.db
    .update(users)
    .set({ firstName: 'Hélène', lastName: 'Dupont', locale: 'fr' })
    .where(eq(users.id, w.member.id))
  return w
}

describe('a first pickup with its acceptance', () => {
  it('stores one receipt with the pickup, once, however often the queue replays it', async () => {
    const w = await world(t)
    const key = randomUUID()
    const body = { acceptance: { typedName: '  Zoé Martin ', signature: SIGNATURE, photo: PHOTO } }
    const first = await pickupWith(t, w.contact.cookie, w.transfer.id, body, key)
    expect(first.status).toBe(201)
    const replay = await pickupWith(t, w.contact.cookie, w.transfer.id, body, key)
    expect(replay.status).toBe(201)
    expect(await replay.json()).toEqual(await first.json())
    // The same key with another acceptance is another request.
    const other = { acceptance: { typedName: 'Someone else' } }
    expect((await pickupWith(t, w.contact.cookie, w.transfer.id, other, key)).status).toBe(422)

    const receipts = await t.db
      .select()
      .from(transferReceipts)
      .where(eq(transferReceipts.transferId, w.transfer.id))
    expect(receipts).toHaveLength(1)
    const [pickupRow] = await t.db
      .select()
      .from(transferPickups)
      .where(eq(transferPickups.transferId, w.transfer.id))
    expect(receipts[0]).toMatchObject({
      pickupId: pickupRow!.id,
      recipientId: w.contact.id,
      handedOverById: w.member.id,
      typedName: 'Zoé Martin',
      signature: SIGNATURE,
      locale: 'en',
      acceptedAt: TEST_EPOCH,
    })
    expect(Buffer.from(receipts[0]!.photo!).toString('base64')).toBe(TINY_JPEG)
    const events = await t.db
      .select()
      .from(organizationEvents)
      .where(
        and(
          eq(organizationEvents.organizationId, w.organization.id),
          eq(organizationEvents.kind, 'transfer.receipt_signed'),
        ),
      )
    expect(events).toHaveLength(1)
    // Both parties are mailed once, each in their language, with the PDF.
    const toContact = t.mail.to(w.contact.email).filter((mail) => mail.attachments?.length)
    const toMember = t.mail.to(w.member.email).filter((mail) => mail.attachments?.length)
    expect(toContact).toHaveLength(1)
    expect(toMember).toHaveLength(1)
    expect(toContact[0]!.subject).toBe('Handover receipt: the keychain “Cave”')
    expect(toMember[0]!.subject).toBe('Reçu de remise : le trousseau « Cave »')
    expect(toMember[0]!.attachments![0]).toMatchObject({ contentType: 'application/pdf' })
  })

  it('answers the receipt, and a real PDF in the recipient’s language naming both parties', async () => {
    const w = await world(t)
    const body = { acceptance: { signature: SIGNATURE, photo: PHOTO } }
    expect((await pickupWith(t, w.contact.cookie, w.transfer.id, body)).status).toBe(201)
    const response = await t.get(`/api/transfers/${w.transfer.id}/receipt`, { cookie: w.contact.cookie })
    expect(response.status).toBe(200)
    const receipt = await response.json()
    expect(receipt).toMatchObject({
      transferId: w.transfer.id,
      organization: { id: w.organization.id, name: 'Agence' },
      keychain: { id: w.keychain.id, name: 'Cave' },
      keys: [{ name: 'Porte', type: 'TAG' }],
      recipient: { id: w.contact.id, name: 'Zoé Martin' },
      handedOverBy: { id: w.member.id, name: 'Hélène Dupont' },
      typedName: null,
      signature: SIGNATURE,
      photo: PHOTO,
      fromQueue: false,
      locale: 'en',
    })
    const pdf = await t.get(`/api/transfers/${w.transfer.id}/receipt/pdf`, { cookie: w.admin.cookie })
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const bytes = new Uint8Array(await pdf.arrayBuffer())
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-')
    const text = await pdfText(bytes)
    expect(text).toContain('Handover receipt')
    expect(text).toContain('Zoé Martin')
    expect(text).toContain('Hélène Dupont')
    expect(text).toContain('Agence')
    expect(text).toContain('Porte (tag)')
    expect(text).toContain('Signature')
    expect(text).toContain('Photo of the keys')
  })

  it('still gives the PDF of a receipt whose stored photo it cannot hold, saying a photo was taken', async () => {
    const w = await world(t)
    const body = { acceptance: { typedName: 'Zoé Martin', photo: PHOTO } }
    expect((await pickupWith(t, w.contact.cookie, w.transfer.id, body)).status).toBe(201)
    // A photo stored before the upload checked what a PDF can hold.
    await t.db
      .update(transferReceipts)
      .set({ photo: jpegWith({ components: 5 }) })
      .where(eq(transferReceipts.transferId, w.transfer.id))
    const pdf = await t.get(`/api/transfers/${w.transfer.id}/receipt/pdf`, { cookie: w.admin.cookie })
    expect(pdf.status).toBe(200)
    const text = await pdfText(await pdf.arrayBuffer())
    expect(text).toContain('Zoé Martin')
    expect(text).toContain('Photo of the keys A photo was taken, in a JPEG format this PDF cannot hold.')
  })

  it('writes no receipt for a pickup without acceptance, nor for a return', async () => {
    const w = await world(t)
    expect((await pickupWith(t, w.contact.cookie, w.transfer.id, undefined)).status).toBe(201)
    const ret = await pickupWith(t, w.admin.cookie, w.transfer.id, { acceptance: { typedName: 'Admin' } })
    expect(ret.status).toBe(201)
    expect((await ret.json()).status).toBe('RETURNED')
    const receipts = await t.db
      .select()
      .from(transferReceipts)
      .where(eq(transferReceipts.transferId, w.transfer.id))
    expect(receipts).toHaveLength(0)
    const read = await t.get(`/api/transfers/${w.transfer.id}/receipt`, { cookie: w.admin.cookie })
    expect(read.status).toBe(404)
  })
})

describe('a bad acceptance', () => {
  const refused = async (json: unknown, code: string) => {
    const w = await world(t)
    const response = await pickupWith(t, w.contact.cookie, w.transfer.id, json)
    expect(response.status).toBe(400)
    expect((await response.json()).error.code).toBe(code)
    // Nothing moved.
    const rows = await t.db
      .select()
      .from(transferPickups)
      .where(eq(transferPickups.transferId, w.transfer.id))
    expect(rows).toHaveLength(0)
  }

  it('needs a typed name or a signature', () =>
    refused({ acceptance: { photo: PHOTO } }, 'validation_failed'))
  it('refuses an empty typed name', () => refused({ acceptance: { typedName: '   ' } }, 'validation_failed'))
  it('refuses a signature that is not path data', () =>
    refused({ acceptance: { signature: '<svg onload="x">' } }, 'validation_failed'))
  it('refuses unknown fields', () =>
    refused({ acceptance: { typedName: 'Zoé' }, extra: 1 }, 'validation_failed'))
  it('refuses a photo that is not a JPEG data URL', () =>
    refused({ acceptance: { typedName: 'Zoé', photo: 'data:image/png;base64,AAAA' } }, 'validation_failed'))
  it('refuses a photo whose bytes are not a JPEG', () =>
    refused({ acceptance: { typedName: 'Zoé', photo: jpegDataUrl(Buffer.alloc(64, 7)) } }, 'photo_invalid'))
  it('refuses a JPEG the receipt’s PDF cannot hold: five colour components', async () => {
    const w = await world(t)
    const photo = jpegDataUrl(Buffer.from(jpegWith({ components: 5 })))
    const response = await pickupWith(t, w.contact.cookie, w.transfer.id, {
      acceptance: { typedName: 'Zoé', photo },
    })
    expect(response.status).toBe(400)
    expect((await response.json()).error).toEqual({
      code: 'photo_invalid',
      message: 'The photo has 5 colour components; it must have 1 (grey), 3 (colour) or 4 (CMYK).',
    })
  })
  it('refuses a photo over 300 KB', () => {
    const big = Buffer.concat([Buffer.from(TINY_JPEG, 'base64'), Buffer.alloc(301 * 1024)])
    return refused({ acceptance: { typedName: 'Zoé', photo: jpegDataUrl(big) } }, 'photo_too_large')
  })
  it('refuses a photo over 1280 px on its longest edge', () => {
    const wide = Buffer.from(TINY_JPEG, 'base64')
    // The frame header (SOF2, progressive) of the tiny JPEG: height 1, width 1 → width 2000.
    const sof = wide.indexOf(Buffer.from([0xff, 0xc2]))
    wide.writeUInt16BE(2000, sof + 7)
    expect(jpegSize(new Uint8Array(wide))).toEqual({ width: 2000, height: 1 })
    return refused({ acceptance: { typedName: 'Zoé', photo: jpegDataUrl(wide) } }, 'photo_too_large')
  })
})

describe('who reads a receipt', () => {
  it('the organization’s ADMIN and MANAGER and both parties; not another MEMBER, nor another organization', async () => {
    const w = await world(t)
    expect(
      (await pickupWith(t, w.contact.cookie, w.transfer.id, { acceptance: { typedName: 'Zoé Martin' } }))
        .status,
    ).toBe(201)
    const manager = await signedInMember(t, w.organization.id, 'MANAGER')
    const otherMember = await signedInMember(t, w.organization.id, 'MEMBER')
    const foreign = await transferWorld(t, { name: 'Autre' })
    const status = async (cookie: string) => {
      const json = await t.get(`/api/transfers/${w.transfer.id}/receipt`, { cookie })
      const pdf = await t.get(`/api/transfers/${w.transfer.id}/receipt/pdf`, { cookie })
      return [json.status, pdf.status]
    }
    expect(await status(w.admin.cookie)).toEqual([200, 200])
    expect(await status(manager.cookie)).toEqual([200, 200])
    expect(await status(w.contact.cookie)).toEqual([200, 200])
    expect(await status(w.member.cookie)).toEqual([200, 200])
    expect(await status(otherMember.cookie)).toEqual([404, 404])
    expect(await status(foreign.admin.cookie)).toEqual([404, 404])
    expect((await t.get(`/api/transfers/${w.transfer.id}/receipt`)).status).toBe(401)
    expect((await t.get('/api/transfers/not-an-id/receipt', { cookie: w.admin.cookie })).status).toBe(400)
  })
})

describe('the receipt mail over real SMTP', () => {
  let mailbox: Awaited<ReturnType<typeof startMailbox>>
  let app: TestApp
  beforeAll(async () => {
    mailbox = await startMailbox()
    const clock = new TestClock()
    clock.set(TEST_EPOCH)
    app = await createTestApp({ clock, mailer: smtpMailer(mailbox.url, 'Trousseau <no-reply@example.test>') })
  })
  afterAll(async () => {
    await app.close()
    await mailbox.close()
  })

  it('reaches both parties with the PDF attached, in the recipient’s language', async () => {
    const w = await world(app)
    const body = { acceptance: { typedName: 'Zoé Martin', signature: SIGNATURE } }
    expect((await pickupWith(app, w.contact.cookie, w.transfer.id, body)).status).toBe(201)
    await app.runJobs()
    const toContact = await mailbox.nextMailTo(w.contact.email, 0, 10_000, /application\/pdf/)
    const toMember = await mailbox.nextMailTo(w.member.email, 0, 10_000, /application\/pdf/)
    // Each in their own language.
    expect(toContact.text).toContain('Your receipt is attached')
    expect(toMember.text).toContain('est joint (PDF)')
    for (const mail of [toContact, toMember]) {
      expect(mail.raw).toMatch(/Content-Type: application\/pdf; name=receipt-Cave\.pdf/)
      const base64 =
        /Content-Disposition: attachment;[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(
          mail.raw,
        )?.[1]
      const pdf = Buffer.from(base64!.replace(/\s+/g, ''), 'base64')
      const text = await pdfText(pdf)
      // The PDF is the recipient's (English) for both.
      expect(text).toContain('Handover receipt')
      expect(text).toContain('Received by')
      expect(text).toContain('Zoé Martin')
    }
  })

  it('names the attachment with its accents in UTF-8 (RFC 2231) and without them in ASCII', async () => {
    const w = await world(app)
    // The PDF is in the recipient's language: French here, so the name starts with « reçu ».
    await app.db.update(users).set({ locale: 'fr' }).where(eq(users.id, w.contact.id))
    await app.db.update(keychains).set({ name: 'Clés du hall' }).where(eq(keychains.id, w.keychain.id))
    const body = { acceptance: { typedName: 'Zoé Martin' } }
    expect((await pickupWith(app, w.contact.cookie, w.transfer.id, body)).status).toBe(201)
    await app.runJobs()
    const mail = await mailbox.nextMailTo(w.contact.email, 0, 10_000, /application\/pdf/)
    const part = attachmentHeaders(mail.raw)
    expect(parameters(part['content-type']!)).toEqual({
      value: 'application/pdf',
      name: 'recu-Cles-du-hall.pdf',
    })
    const disposition = parameters(part['content-disposition']!)
    expect(disposition.value).toBe('attachment')
    expect(disposition.filename).toBe('recu-Cles-du-hall.pdf')
    expect(disposition['filename*']).toMatch(/^UTF-8''[A-Za-z0-9%.!~_-]+$/)
    expect(decodeURIComponent(disposition['filename*']!.slice("UTF-8''".length))).toBe(
      'reçu-Clés-du-hall.pdf',
    )
    expect(mail.raw).not.toContain('Cle-s')
  })
})
