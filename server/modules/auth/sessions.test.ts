import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { DAY, MINUTE, SECOND } from '../../../tests/server/clock.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { sessions } from '../../db/schema.ts'
import { pruneExpired } from './housekeeping.ts'

const t = setupTestApp()

const profileStatus = async (cookie: string) => (await t.get('/api/profile', { cookie })).status

async function sessionRows(userId: string) {
  return t.db.select().from(sessions).where(eq(sessions.userId, userId))
}

describe('sessions', () => {
  it('stores only a keyed hash of the session id', async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    const value = cookie.split('=')[1]!
    const rows = await sessionRows(profile.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.idHash).not.toBe(value)
    expect(JSON.stringify(rows)).not.toContain(value)
  })

  it('records the user agent', async () => {
    const email = uniqueEmail()
    await t.post('/api/email-tokens', { json: { email } })
    const { token } = t.mail.signInFor(email)
    const response = await t.post('/api/sessions', {
      json: { token },
      headers: { 'user-agent': 'KeyPhone/1.0' },
    })
    const { id } = await response.json()
    expect((await sessionRows(id))[0]!.userAgent).toBe('KeyPhone/1.0')
  })

  it('signs out: DELETE /api/session answers 204, deletes the row and clears the cookie', async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    const response = await t.delete('/api/session', { cookie })
    expect(response.status).toBe(204)
    expect(response.headers.getSetCookie()[0]).toMatch(/^session=; Max-Age=0/)
    expect(await sessionRows(profile.id)).toHaveLength(0)
    expect(await profileStatus(cookie)).toBe(401)
  })

  it('answers 204 to a sign-out without a session', async () => {
    expect((await t.delete('/api/session')).status).toBe(204)
  })

  it('ends only the signed-out session, not the other devices', async () => {
    const email = uniqueEmail()
    const phone = await t.signIn(email)
    const desktop = await t.signIn(email)
    await t.delete('/api/session', { cookie: phone.cookie })
    expect(await profileStatus(desktop.cookie)).toBe(200)
  })

  it('expires after 7 idle days', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    t.clock.advance(7 * DAY - SECOND)
    expect(await profileStatus(cookie)).toBe(200)
    t.clock.advance(7 * DAY)
    const response = await t.get('/api/profile', { cookie })
    expect(response.status).toBe(401)
    expect(response.headers.getSetCookie()[0]).toMatch(/^session=; Max-Age=0/)
  })

  it('slides the idle window while in use, but ends 30 days after sign-in', async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    for (let day = 6; day < 30; day += 6) {
      t.clock.advance(6 * DAY)
      expect(await profileStatus(cookie)).toBe(200)
    }
    t.clock.advance(6 * DAY) // day 30
    expect(await profileStatus(cookie)).toBe(401)
    expect(await sessionRows(profile.id)).toHaveLength(0)
  })

  it('writes last_used_at at most once a minute', async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    const signedInAt = t.clock.now()
    t.clock.advance(30 * SECOND)
    await profileStatus(cookie)
    expect((await sessionRows(profile.id))[0]!.lastUsedAt).toEqual(signedInAt)
    t.clock.advance(MINUTE)
    await profileStatus(cookie)
    expect((await sessionRows(profile.id))[0]!.lastUsedAt).toEqual(t.clock.now())
  })

  it('refuses a forged or malformed cookie', async () => {
    expect(await profileStatus(`session=${'A'.repeat(43)}`)).toBe(401)
    expect(await profileStatus('session=not-a-session')).toBe(401)
  })

  it('housekeeping deletes dead sessions', async () => {
    const { profile } = await t.signIn(uniqueEmail())
    t.clock.advance(8 * DAY)
    await pruneExpired(t.deps)
    expect(await sessionRows(profile.id)).toHaveLength(0)
  })
})
