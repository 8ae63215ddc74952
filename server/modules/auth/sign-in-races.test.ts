import { and, eq, isNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { emailTokens, sessions } from '../../db/schema.ts'
import { issueSignInToken } from './sign-in-tokens.ts'

const t = setupTestApp()

describe('issueSignInToken', () => {
  it('leaves exactly one live code when two sends for one address run at once', async () => {
    for (let round = 0; round < 5; round += 1) {
      const email = uniqueEmail()
      await Promise.all([issueSignInToken(t.deps, email, 'fr'), issueSignInToken(t.deps, email, 'fr')])
      const live = await t.db
        .select({ id: emailTokens.id })
        .from(emailTokens)
        .where(
          and(eq(emailTokens.email, email), isNull(emailTokens.voidedAt), isNull(emailTokens.consumedAt)),
        )
      expect(live).toHaveLength(1)
    }
  })
})

describe('signing in again', () => {
  it('deletes the session behind the current cookie before creating the new one', async () => {
    const email = uniqueEmail()
    const first = await t.signIn(email)
    const { token } = await issueSignInToken(t.deps, email, 'fr')
    const again = await t.post('/api/sessions', { cookie: first.cookie, json: { token } })
    expect(again.status).toBe(201)
    expect((await t.get('/api/profile', { cookie: first.cookie })).status).toBe(401)
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, first.profile.id))
    expect(rows).toHaveLength(1)
  })

  it('also when the new sign-in is for another account', async () => {
    const first = await t.signIn(uniqueEmail())
    const { token } = await issueSignInToken(t.deps, uniqueEmail(), 'fr')
    expect((await t.post('/api/sessions', { cookie: first.cookie, json: { token } })).status).toBe(201)
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, first.profile.id))
    expect(rows).toHaveLength(0)
  })
})
