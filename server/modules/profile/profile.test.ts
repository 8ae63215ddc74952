import { describe, expect, it } from 'vitest'
import { permissionsFor } from '../../../contract/permissions.ts'
import { addMember, createOrganization } from '../../test/fixtures.ts'
import { createTestApp, setupTestApp, uniqueEmail } from '../../test/harness.ts'

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
