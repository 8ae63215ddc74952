import { describe, expect, it } from 'vitest'
import { FOUND_REPORT_REPLIES_MAX } from '../../../contract/found-reports.ts'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { keys } from '../../db/schema.ts'
import { hitRateLimit } from '../../http/rate-limit.ts'
import { FOUND_REPORT_REPLIES_PER_ORGANIZATION } from './actions.ts'
import { finderEmailOf, maskAddresses } from './contact.ts'

const t = setupTestApp()

/** An organization with an admin, a manager, a member and a contact, and a tag on a keychain. */
async function world(name = 'Agence Lumière') {
  const { organization, admin } = await organizationWithAdmin(t, name)
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const contact = await signedInMember(t, organization.id, 'CONTACT')
  const [tag] = await makeTags(t, organization.id)
  const keychain = await makeKeychain(t, organization.id, 'Appartement 12')
  await t.db
    .insert(keys)
    .values({ keychainId: keychain.id, name: 'Badge', type: 'TAG', tagId: tag!.id, createdAt: t.clock.now() })
  // The finder's address: it must never appear in what staff receive.
  const finder = uniqueEmail('trouveur')
  return { organization, admin, manager, member, contact, tag: tag!, keychain, finder }
}

type World = Awaited<ReturnType<typeof world>>

/** A finder writes from the tag's page (in `language`), then the first admin finds the report's id. */
async function report(
  w: World,
  { contact = `Jean, ${w.finder}`, message = 'Trouvées devant la gare.', language = 'en' } = {},
) {
  const response = await t.post(`/api/tags/${w.tag.publicId}/found-reports`, {
    json: { message, contact },
    headers: { 'accept-language': language },
  })
  expect(response.status).toBe(202)
  const list = await (await t.get('/api/found-reports', { cookie: w.admin.cookie })).json()
  return list.data[0].id as string
}

const json = async (response: Response) => ({ status: response.status, body: await response.json() })

describe('found-key reports', () => {
  it('keeps a report when a finder writes, with its tag, keychain and language, the address masked', async () => {
    const w = await world()
    const id = await report(w, { message: `Trouvées devant la gare, écrivez à ${w.finder}.` })
    const list = await json(await t.get('/api/found-reports', { cookie: w.manager.cookie }))
    expect(list.status).toBe(200)
    expect(list.body).toEqual({
      data: [
        {
          id,
          status: 'NEW',
          message: 'Trouvées devant la gare, écrivez à …@…',
          tag: { id: w.tag.id, code: w.tag.code, name: w.tag.name },
          keychain: { id: w.keychain.id, name: 'Appartement 12' },
          locale: 'en',
          canReply: true,
          replies: 0,
          createdAt: t.clock.now().toISOString(),
          updatedAt: t.clock.now().toISOString(),
        },
      ],
      nextCursor: null,
    })
    const detail = await json(await t.get(`/api/found-reports/${id}`, { cookie: w.admin.cookie }))
    expect(detail.body).toMatchObject({
      contact: 'Jean, …@…',
      statusChangedAt: null,
      statusChangedBy: null,
      replyList: [],
      repliesLeft: FOUND_REPORT_REPLIES_MAX,
    })
    // Nor the list, nor the detail, nor the admins' mail, nor the ledger holds the finder's address.
    const activity = await (await t.get('/api/activity', { cookie: w.admin.cookie })).text()
    const mail = t.mail.last(w.admin.email)!
    for (const seen of [
      JSON.stringify(list.body),
      JSON.stringify(detail.body),
      activity,
      mail.text,
      mail.html,
    ])
      expect(seen).not.toContain('trouveur')
    expect(mail.text).toContain('Pour la joindre : Jean, …@…')
    expect(mail.text).toContain(`${t.config.publicUrl}/app/found-reports/${id}`)
  })

  it('keeps a phone number readable, and says no reply can be mailed', async () => {
    const w = await world()
    const id = await report(w, { contact: '06 12 34 56 78', language: 'fr' })
    const detail = await json(await t.get(`/api/found-reports/${id}`, { cookie: w.admin.cookie }))
    expect(detail.body).toMatchObject({
      contact: '06 12 34 56 78',
      canReply: false,
      locale: 'fr',
      repliesLeft: 0,
    })
    const reply = await json(
      await t.post(`/api/found-reports/${id}/replies`, {
        cookie: w.admin.cookie,
        json: { message: 'Merci !' },
      }),
    )
    expect(reply.status).toBe(409)
    expect(reply.body.error).toMatchObject({
      code: 'finder_unreachable',
      message: 'The finder left no e-mail address: call them, or mark the report as contacted.',
    })
  })

  it('lets ADMIN and MANAGER read, move and reply; MEMBER and CONTACT get 403, signed out 401', async () => {
    const w = await world()
    const id = await report(w)
    const calls = {
      list: (cookie?: string) => t.get('/api/found-reports', { cookie }),
      one: (cookie?: string) => t.get(`/api/found-reports/${id}`, { cookie }),
      status: (cookie?: string) =>
        t.patch(`/api/found-reports/${id}`, { cookie, json: { status: 'CONTACTED' } }),
      reply: (cookie?: string) =>
        t.post(`/api/found-reports/${id}/replies`, { cookie, json: { message: 'Merci.' } }),
    }
    const statuses: Record<string, number[]> = {}
    for (const [who, cookie] of [
      ['ADMIN', w.admin.cookie],
      ['MANAGER', w.manager.cookie],
      ['MEMBER', w.member.cookie],
      ['CONTACT', w.contact.cookie],
      ['signed out', undefined],
    ] as const) {
      statuses[who] = []
      for (const call of Object.values(calls)) statuses[who].push((await call(cookie)).status)
    }
    expect(statuses).toEqual({
      ADMIN: [200, 200, 200, 201],
      MANAGER: [200, 200, 200, 201],
      MEMBER: [403, 403, 403, 403],
      CONTACT: [403, 403, 403, 403],
      'signed out': [401, 401, 401, 401],
    })
  })

  it("answers 404 for another organization's report, and never lists it", async () => {
    const mine = await world('Mine')
    const theirs = await world('Theirs')
    const id = await report(theirs)
    const cookie = mine.admin.cookie
    const one = await json(await t.get(`/api/found-reports/${id}`, { cookie }))
    expect(one.status).toBe(404)
    expect(one.body.error).toMatchObject({ code: 'not_found', message: 'No such found-key report.' })
    const moved = await t.patch(`/api/found-reports/${id}`, { cookie, json: { status: 'RESOLVED' } })
    expect(moved.status).toBe(404)
    expect((await moved.json()).error.code).toBe('not_found')
    const replied = await t.post(`/api/found-reports/${id}/replies`, { cookie, json: { message: 'Hello' } })
    expect(replied.status).toBe(404)
    expect(t.mail.to(theirs.finder)).toHaveLength(0)
    expect((await (await t.get('/api/found-reports', { cookie })).json()).data).toEqual([])
    const unchanged = await (await t.get(`/api/found-reports/${id}`, { cookie: theirs.admin.cookie })).json()
    expect(unchanged).toMatchObject({ status: 'NEW', replies: 0 })
  })

  it('moves the status any way, with who and when, each move a ledger entry; the same status is no move', async () => {
    const w = await world()
    const id = await report(w)
    const move = (status: string, cookie = w.admin.cookie) =>
      t.patch(`/api/found-reports/${id}`, { cookie, json: { status } })
    t.clock.advance(60_000)
    const resolved = await json(await move('RESOLVED', w.manager.cookie))
    expect(resolved.status).toBe(200)
    expect(resolved.body).toMatchObject({
      status: 'RESOLVED',
      statusChangedAt: t.clock.now().toISOString(),
      statusChangedBy: { id: w.manager.id, email: w.manager.email },
      updatedAt: t.clock.now().toISOString(),
    })
    expect((await json(await move('NEW'))).body.status).toBe('NEW')
    expect((await json(await move('CONTACTED'))).body).toMatchObject({
      status: 'CONTACTED',
      statusChangedBy: { id: w.admin.id },
    })
    expect((await move('CONTACTED')).status).toBe(200)
    const ledger = await (
      await t.get('/api/activity?kind=found_report.status_changed', { cookie: w.admin.cookie })
    ).json()
    expect(
      ledger.data.map((entry: { payload: object; actor: { id: string } }) => [entry.actor.id, entry.payload]),
    ).toEqual([
      [w.admin.id, { reportId: id, from: 'NEW', to: 'CONTACTED' }],
      [w.admin.id, { reportId: id, from: 'RESOLVED', to: 'NEW' }],
      [w.manager.id, { reportId: id, from: 'NEW', to: 'RESOLVED' }],
    ])
    expect(ledger.data[0].tagIds).toEqual([w.tag.id])
    const received = await (
      await t.get('/api/activity?kind=found_report.received', { cookie: w.admin.cookie })
    ).json()
    expect(received.data[0].payload).toEqual({ reportId: id })
  })

  it('answers 400 with a code and a readable message on bad input', async () => {
    const w = await world()
    const id = await report(w)
    const cookie = w.admin.cookie
    const cases = [
      [t.patch(`/api/found-reports/${id}`, { cookie, json: { status: 'LOST' } }), 'Unknown status.'],
      [t.patch(`/api/found-reports/${id}`, { cookie, json: { status: 'NEW', finder: 'x' } }), null],
      [t.patch('/api/found-reports/not-an-id', { cookie, json: { status: 'NEW' } }), 'Malformed id.'],
      [
        t.post(`/api/found-reports/${id}/replies`, { cookie, json: { message: '   ' } }),
        'Message is required.',
      ],
      [
        t.post(`/api/found-reports/${id}/replies`, { cookie, json: { message: 'x'.repeat(2001) } }),
        'Message is too long.',
      ],
      [t.get('/api/found-reports?status=LOST', { cookie }), 'Unknown status.'],
      [t.get('/api/found-reports?cursor=nonsense', { cookie }), 'Malformed cursor.'],
    ] as const
    for (const [pending, message] of cases) {
      const { status, body } = await json(await pending)
      expect(status).toBe(400)
      expect(body.error.code).toBe('validation_failed')
      expect(body.error.message).toBeTypeOf('string')
      if (message) expect(body.error.message).toBe(message)
    }
  })

  it('pages newest first on the server and filters by status', async () => {
    const w = await world()
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000)
      ids.push(await report(w, { message: `Report ${i}`, contact: uniqueEmail('finder') }))
    }
    const cookie = w.admin.cookie
    await t.patch(`/api/found-reports/${ids[1]}`, { cookie, json: { status: 'RESOLVED' } })
    const first = await (await t.get('/api/found-reports?limit=2', { cookie })).json()
    expect(first.data.map((each: { id: string }) => each.id)).toEqual([ids[2], ids[1]])
    const second = await (
      await t.get(`/api/found-reports?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`, { cookie })
    ).json()
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null })
    const fresh = await (await t.get('/api/found-reports?status=NEW', { cookie })).json()
    expect(fresh.data.map((each: { id: string }) => each.id)).toEqual([ids[2], ids[0]])
    const done = await (await t.get('/api/found-reports?status=RESOLVED', { cookie })).json()
    expect(done.data.map((each: { id: string }) => each.id)).toEqual([ids[1]])
  })

  it("mails a reply to the finder in the finder's language, keeps it, and marks a NEW report CONTACTED", async () => {
    const w = await world('Agence Lumière')
    const id = await report(w)
    const sent = await json(
      await t.post(`/api/found-reports/${id}/replies`, {
        cookie: w.manager.cookie,
        json: { message: 'Thank you! Could you leave them at the <b>bakery</b>?' },
      }),
    )
    expect(sent.status).toBe(201)
    expect(sent.body).toMatchObject({
      status: 'CONTACTED',
      statusChangedBy: { id: w.manager.id },
      replies: 1,
      repliesLeft: FOUND_REPORT_REPLIES_MAX - 1,
      replyList: [
        {
          message: 'Thank you! Could you leave them at the <b>bakery</b>?',
          author: { id: w.manager.id, email: w.manager.email },
          createdAt: t.clock.now().toISOString(),
        },
      ],
    })
    expect(JSON.stringify(sent.body)).not.toContain('trouveur')
    const [mail, ...more] = t.mail.to(w.finder)
    expect(more).toEqual([])
    expect(mail!.subject).toBe('Agence Lumière replied about the keys you found')
    expect(mail!.text).toContain('Thank you! Could you leave them at the <b>bakery</b>?')
    expect(mail!.text).toContain('You had written: Trouvées devant la gare.')
    expect(mail!.text).toContain(`${t.config.publicUrl}/en/tags/${w.tag.publicId}`)
    expect(mail!.html).toContain('&lt;b&gt;bakery&lt;/b&gt;')
    // The staff member's address is not given to the finder.
    expect(`${mail!.text}${mail!.html}`).not.toContain(w.manager.email)
    const ledger = await (await t.get('/api/activity', { cookie: w.admin.cookie })).json()
    expect(ledger.data.slice(0, 2).map((entry: { kind: string }) => entry.kind)).toEqual([
      'found_report.status_changed',
      'found_report.replied',
    ])
    expect(ledger.data[1]).toMatchObject({ actor: { id: w.manager.id }, payload: { reportId: id } })
    // The first reply moved the report from NEW to CONTACTED, and the ledger says so.
    expect(ledger.data[0]).toMatchObject({
      actor: { id: w.manager.id },
      payload: { reportId: id, from: 'NEW', to: 'CONTACTED' },
    })
    expect(JSON.stringify(ledger.data[1])).not.toContain('bakery')
    // A later reply leaves the status where staff put it.
    await t.patch(`/api/found-reports/${id}`, { cookie: w.admin.cookie, json: { status: 'RESOLVED' } })
    const resolvedAt = t.clock.now().toISOString()
    t.clock.advance(60_000)
    const again = await json(
      await t.post(`/api/found-reports/${id}/replies`, {
        cookie: w.admin.cookie,
        json: { message: 'Got them.' },
      }),
    )
    expect(again.body).toMatchObject({
      status: 'RESOLVED',
      replies: 2,
      statusChangedAt: resolvedAt,
      statusChangedBy: { id: w.admin.id },
      updatedAt: t.clock.now().toISOString(),
    })
    // Its ledger entry says a reply was sent, and no status moved.
    const after = await (await t.get('/api/activity', { cookie: w.admin.cookie })).json()
    expect(
      after.data.slice(0, 2).map((entry: { kind: string; payload: object }) => [entry.kind, entry.payload]),
    ).toEqual([
      ['found_report.replied', { reportId: id }],
      ['found_report.status_changed', { reportId: id, from: 'CONTACTED', to: 'RESOLVED' }],
    ])
    expect(after.data[0].tagIds).toEqual([w.tag.id])
  })

  it('writes to a French finder in French', async () => {
    const w = await world('Agence Lumière')
    const finder = uniqueEmail('finder')
    const id = await report(w, { contact: finder, language: 'fr-FR,fr;q=0.9' })
    await t.post(`/api/found-reports/${id}/replies`, { cookie: w.admin.cookie, json: { message: 'Merci !' } })
    const mail = t.mail.last(finder)!
    expect(mail.subject).toBe('Agence Lumière a répondu au sujet des clés que vous avez trouvées')
    expect(mail.text).toContain(`${t.config.publicUrl}/tags/${w.tag.publicId}`)
  })

  it(`caps a report at ${FOUND_REPORT_REPLIES_MAX} replies, and an organization's replies per hour`, async () => {
    const w = await world()
    const id = await report(w)
    const reply = () =>
      t.post(`/api/found-reports/${id}/replies`, { cookie: w.admin.cookie, json: { message: 'Again' } })
    for (let i = 0; i < FOUND_REPORT_REPLIES_MAX; i++) expect((await reply()).status).toBe(201)
    const over = await json(await reply())
    expect(over.status).toBe(409)
    expect(over.body.error).toMatchObject({
      code: 'replies_exhausted',
      message: `This report has had its ${FOUND_REPORT_REPLIES_MAX} replies.`,
    })
    expect(t.mail.to(w.finder).filter((mail) => mail.text.includes('Again'))).toHaveLength(
      FOUND_REPORT_REPLIES_MAX,
    )

    const otherFinder = uniqueEmail('finder')
    const other = await report(w, { contact: otherFinder })
    // The organization's hourly allowance used up (by replies to other reports):
    for (let i = 0; i < FOUND_REPORT_REPLIES_PER_ORGANIZATION.limit; i++)
      await hitRateLimit(
        t.db,
        `found-report:replies:${w.organization.id}`,
        FOUND_REPORT_REPLIES_PER_ORGANIZATION,
        t.clock.now(),
      )
    const limited = await t.post(`/api/found-reports/${other}/replies`, {
      cookie: w.admin.cookie,
      json: { message: 'One more' },
    })
    expect(limited.status).toBe(429)
    expect((await limited.json()).error).toMatchObject({
      code: 'rate_limited',
      message: 'Too many replies. Please try again later.',
    })
    // Until the organization's hour is over (fixed windows of an hour).
    const hour = FOUND_REPORT_REPLIES_PER_ORGANIZATION.windowMs
    expect(hour).toBe(60 * 60 * 1000)
    expect(limited.headers.get('retry-after')).toBe(
      String(Math.ceil((hour - (t.clock.now().getTime() % hour)) / 1000)),
    )
    expect(t.mail.to(otherFinder)).toEqual([])
  })

  it('reads the reply address out of what a finder typed, and masks every address', () => {
    expect(finderEmailOf('Appelez Jean <Jean.Dupont+cles@Example.COM.>')).toBe('jean.dupont+cles@example.com')
    expect(finderEmailOf('06 12 34 56 78')).toBeNull()
    expect(finderEmailOf('jean@localhost')).toBeNull()
    // The first address that is one: a bare host is passed over; the dots ending a sentence are not its own.
    expect(finderEmailOf('jean@localhost, sinon Marie@Example.org...')).toBe('marie@example.org')
    expect(finderEmailOf('marie@example.org; jean@example.com')).toBe('marie@example.org')
    expect(maskAddresses('06 12 34 56 78 ou (jean@example.com), merci')).toBe('06 12 34 56 78 ou …@… merci')
    expect(maskAddresses('jean@localhost')).toBe('…@…')
  })

  it('pages reports that came at the same instant by id, newest first, and keeps one on a tag without keychain', async () => {
    const w = await world()
    const [loose] = await makeTags(t, w.organization.id, 1, 'LIB')
    // Three reports in the same millisecond, one of them about a tag on no keychain.
    await report(w)
    await report(w)
    const response = await t.post(`/api/tags/${loose!.publicId}/found-reports`, {
      json: { message: 'Un badge seul.', contact: '06 00 00 00 00' },
    })
    expect(response.status).toBe(202)
    const all = await (await t.get('/api/found-reports', { cookie: w.admin.cookie })).json()
    expect(all.data).toHaveLength(3)
    const newest = [...all.data.map((each: { id: string }) => each.id)]
    expect(newest).toEqual([...newest].sort().reverse())
    const alone = all.data.find((each: { message: string }) => each.message === 'Un badge seul.')
    expect(alone).toMatchObject({
      tag: { id: loose!.id, code: loose!.code },
      keychain: null,
      canReply: false,
    })
    const paged: string[] = []
    let cursor: string | null = null
    do {
      const page: { data: Array<{ id: string }>; nextCursor: string | null } = await (
        await t.get(`/api/found-reports?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
          cookie: w.admin.cookie,
        })
      ).json()
      paged.push(...page.data.map((each) => each.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(paged).toEqual(newest)
  })
})
