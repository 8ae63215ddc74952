import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { permissionsFor } from '../../../contract/permissions.ts'
import { addMember, createOrganization } from '../../../tests/server/fixtures.ts'
import { createTestApp, setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'

const t = setupTestApp({ config: { operatorEmails: ['operator@example.test'] } })

describe('GET /api/profile', () => {
  it('answers 401 unauthenticated without a session', async () => {
    const response = await t.get('/api/profile')
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({
      error: { code: 'unauthenticated', message: 'Sign in to continue.' },
    })
  })

  it('has no permissions without a selected organization', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    const profile = await (await t.get('/api/profile', { cookie })).json()
    expect(profile).toMatchObject({ isOperator: false, selectedOrganizationId: null, permissions: [] })
  })

  it('takes the permissions of the role in the selected organization', async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    const organization = await createOrganization(t)
    await addMember(t, { userId: profile.id, organizationId: organization.id, role: 'MANAGER' })
    const body = await (await t.get('/api/profile', { cookie })).json()
    expect(body.selectedOrganizationId).toBe(organization.id)
    expect(body.permissions).toEqual(permissionsFor('MANAGER'))
  })

  it('gives nothing for a membership that is not active', async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    const organization = await createOrganization(t)
    await addMember(t, {
      userId: profile.id,
      organizationId: organization.id,
      role: 'ADMIN',
      status: 'DISABLED',
    })
    expect((await (await t.get('/api/profile', { cookie })).json()).permissions).toEqual([])
  })

  it('adds the operator permissions for addresses in OPERATOR_EMAILS', async () => {
    const { profile } = await t.signIn('Operator@Example.test')
    expect(profile.isOperator).toBe(true)
    expect(profile.permissions).toEqual(permissionsFor(null, true))
  })
})

describe('PATCH /api/profile', () => {
  it('updates names, phone number and locale', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    const response = await t.patch('/api/profile', {
      cookie,
      json: { firstName: '  Camille ', lastName: 'Durand', phoneNumber: '+33 6 12 34 56 78', locale: 'en' },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      firstName: 'Camille',
      lastName: 'Durand',
      phoneNumber: '+33 6 12 34 56 78',
      locale: 'en',
    })
    expect((await (await t.get('/api/profile', { cookie })).json()).firstName).toBe('Camille')
  })

  it('accepts an empty patch', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    expect((await t.patch('/api/profile', { cookie, json: {} })).status).toBe(200)
  })

  it('refuses a phone number with letters (400 validation_failed)', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    const response = await t.patch('/api/profile', { cookie, json: { phoneNumber: '06 CALL ME' } })
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.error.code).toBe('validation_failed')
    expect(body.error.message).toBe('Phone number may hold digits, spaces and + ( ) . - only.')
    expect(body.error.issues[0].path).toBe('phoneNumber')
  })

  it('refuses unknown fields, such as the e-mail address', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    const response = await t.patch('/api/profile', { cookie, json: { email: 'new@example.test' } })
    expect(response.status).toBe(400)
    expect((await response.json()).error.code).toBe('validation_failed')
  })

  it('answers 401 without a session', async () => {
    expect((await t.patch('/api/profile', { json: { firstName: 'X' } })).status).toBe(401)
  })
})

describe('the theme of the account (issue 23)', () => {
  it("is the system's until chosen, then the chosen one on every read, apart from the other settings", async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    expect(profile.theme).toBe('system')
    for (const theme of ['dark', 'light', 'system'] as const) {
      const response = await t.patch('/api/profile', { cookie, json: { theme } })
      expect(response.status).toBe(200)
      expect((await response.json()).theme).toBe(theme)
      expect((await (await t.get('/api/profile', { cookie })).json()).theme).toBe(theme)
    }
    await t.patch('/api/profile', { cookie, json: { theme: 'dark' } })
    const renamed = await (await t.patch('/api/profile', { cookie, json: { firstName: 'Noé' } })).json()
    expect(renamed).toMatchObject({ firstName: 'Noé', theme: 'dark' })
  })

  it("is one account's: another account keeps its own", async () => {
    const first = await t.signIn(uniqueEmail())
    const second = await t.signIn(uniqueEmail())
    await t.patch('/api/profile', { cookie: first.cookie, json: { theme: 'dark' } })
    expect((await (await t.get('/api/profile', { cookie: second.cookie })).json()).theme).toBe('system')
  })

  it.each([['sepia'], [''], [null], [1]])(
    'refuses %j (400 validation_failed, with the reason)',
    async (theme) => {
      const { cookie } = await t.signIn(uniqueEmail())
      const response = await t.patch('/api/profile', { cookie, json: { theme } })
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body.error).toMatchObject({
        code: 'validation_failed',
        message: 'Theme must be system, light or dark.',
      })
      expect(body.error.issues[0].path).toBe('theme')
      expect((await (await t.get('/api/profile', { cookie })).json()).theme).toBe('system')
    },
  )

  it('is refused by the database outside the three values', async () => {
    const { profile } = await t.signIn(uniqueEmail())
    const refused = await t.database.db
      .execute(sql`update users set theme = 'sepia' where id = ${profile.id}`)
      .then(
        () => null,
        (error: Error) => String(error.cause),
      )
    expect(refused).toMatch(/users_theme/)
  })
})

describe('a separate app on its own database', () => {
  it('does not see users of another test app', async () => {
    const other = await createTestApp()
    try {
      expect(other.database).not.toBe(t.database)
      const { profile } = await other.signIn(uniqueEmail())
      expect(profile.id).toMatch(/^[0-9a-f-]{36}$/)
    } finally {
      await other.close()
    }
  })
})
