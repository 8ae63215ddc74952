import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { authorize, dates, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { keychains, users } from '../../db/schema.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

const disable = (cookie: string, userId: string) =>
  t.patch(`/api/users/${userId}`, { cookie, json: { status: 'DISABLED' } })

const leaversOf = async (cookie: string) =>
  (await (await t.get('/api/reports/leavers', { cookie })).json()) as {
    data: Array<{ person: { id: string }; keychains: number; transfers: number }>
  }

describe('the leaver alert', () => {
  it('tells every other admin, in their language, within the request that disabled someone holding keys', async () => {
    const world = await transferWorld(t)
    const second = await signedInMember(t, world.organization.id, 'ADMIN')
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, second.id))
    await t.db
      .update(users)
      .set({ firstName: 'Marc', lastName: 'Martin' })
      .where(eq(users.id, world.member.id))
    const started = Date.now()
    const response = await disable(world.admin.cookie, world.member.id)
    expect(response.status).toBe(200)
    const [mail] = t.mail.to(second.email)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(mail!.subject).toBe('Marc Martin left Agence with 1 keychain')
    expect(mail!.text).toContain(`http://localhost:3000/en/app/users/${world.member.id}`)
    expect(mail!.text).toContain(
      'Marc Martin can no longer sign in to Agence, yet still holds 1 keychain and has no transfer open.',
    )
    const [french] = t.mail.to(world.admin.email)
    expect(french).toMatchObject({ subject: 'Marc Martin a quitté Agence avec 1 trousseau' })
    // The person who left is not told.
    expect(t.mail.to(world.member.email)).toEqual([])
  })

  it('counts the transfers still open to them, and says nothing of someone who holds nothing', async () => {
    const world = await transferWorld(t)
    await t.db
      .update(keychains)
      .set({ custodianId: world.admin.id })
      .where(eq(keychains.id, world.keychain.id))
    expect((await disable(world.admin.cookie, world.member.id)).status).toBe(200)
    expect(t.mail.messages).toEqual([])
    const response = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(toMember(world.contact.id)),
    )
    expect(response.status).toBe(201)
    t.mail.messages.length = 0
    const second = await signedInMember(t, world.organization.id, 'ADMIN')
    expect((await disable(world.admin.cookie, world.contact.id)).status).toBe(200)
    const [mail] = t.mail.to(second.email)
    expect(mail!.text).toContain('ne détient aucun trousseau et a 1 transfert en cours')
  })

  it('lists the leavers until everything is back, most keychains first', async () => {
    const world = await transferWorld(t)
    expect((await leaversOf(world.admin.cookie)).data).toEqual([])
    await disable(world.admin.cookie, world.member.id)
    expect((await leaversOf(world.admin.cookie)).data).toEqual([
      { person: expect.objectContaining({ id: world.member.id }), keychains: 1, transfers: 0 },
    ])
    await t.db
      .update(keychains)
      .set({ custodianId: world.admin.id })
      .where(eq(keychains.id, world.keychain.id))
    expect((await leaversOf(world.admin.cookie)).data).toEqual([])
    // A member who only reads cannot see it.
    expect((await t.get('/api/reports/leavers', { cookie: world.member.cookie })).status).toBe(401)
  })
})
