import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { failure } from '../tests/schema-checks.ts'
import {
  API_TOKEN_NAME_MAX,
  API_TOKEN_PATTERN,
  ApiTokenListSchema,
  CreatedApiTokenSchema,
  OrganizationApiTokenCreateSchema,
  OrganizationApiTokenParamsSchema,
  PersonalApiTokenCreateSchema,
} from './api-tokens.ts'

const ID = '00000000-0000-4000-8000-000000000001'
const SECRET = 'Az09_-'.repeat(7).concat('x')

describe('an API token as written', () => {
  it('is trs_, twelve hex characters, _ and 43 base64url characters, and nothing around them', () => {
    const token = `trs_0123456789ab_${SECRET}`
    expect(API_TOKEN_PATTERN.exec(token)?.slice(1)).toEqual(['0123456789ab', SECRET])
    for (const bad of [
      `xtrs_0123456789ab_${SECRET}`,
      `trs_0123456789ab_${SECRET}x`,
      `trs_0123456789a_${SECRET}`,
      `trs_0123456789abc_${SECRET}`,
      `trs_0123456789aB_${SECRET}`,
      `trs_0123456789ag_${SECRET}`,
      `trs_0123456789ab_${SECRET.slice(1)}`,
      `trs_0123456789ab_${SECRET.slice(1)}=`,
      `trs_0123456789ab_${SECRET.slice(1)}+`,
    ]) {
      expect(API_TOKEN_PATTERN.test(bad), bad).toBe(false)
    }
  })
})

describe('making a token', () => {
  it('takes a name of at most 100 characters and a future ISO time or none', () => {
    expect(API_TOKEN_NAME_MAX).toBe(100)
    expect(v.parse(PersonalApiTokenCreateSchema, { name: ' Export ' })).toEqual({
      name: 'Export',
      expiresAt: null,
    })
    expect(
      v.parse(PersonalApiTokenCreateSchema, { name: 'n'.repeat(100), expiresAt: '2030-01-01T00:00:00Z' }),
    ).toEqual({ name: 'n'.repeat(100), expiresAt: '2030-01-01T00:00:00Z' })
    expect(failure(PersonalApiTokenCreateSchema, { name: ' ' })).toBe('name: Give the token a name.')
    expect(failure(PersonalApiTokenCreateSchema, { name: 'n'.repeat(101) })).toBe(
      'name: A token name has at most 100 characters.',
    )
    for (const expiresAt of [5, 'tomorrow', '2030-02-30T00:00:00Z']) {
      expect(failure(PersonalApiTokenCreateSchema, { name: 'x', expiresAt }), String(expiresAt)).toBe(
        'expiresAt: The expiry must be an ISO 8601 time.',
      )
    }
    expect(failure(PersonalApiTokenCreateSchema, { name: 'x', role: 'ADMIN' })).toMatch(/^role: /)
  })

  it('for an organization takes a role, and is for the API unless made for the identity provider', () => {
    expect(v.parse(OrganizationApiTokenCreateSchema, { name: 'API', role: 'MANAGER' })).toEqual({
      name: 'API',
      role: 'MANAGER',
      expiresAt: null,
      kind: 'organization',
    })
    expect(
      v.parse(OrganizationApiTokenCreateSchema, { name: 'IdP', role: 'MEMBER', kind: 'scim' }).kind,
    ).toBe('scim')
    expect(failure(OrganizationApiTokenCreateSchema, { name: 'IdP', role: 'MEMBER', kind: 'personal' })).toBe(
      'kind: kind must be organization or scim.',
    )
    expect(failure(OrganizationApiTokenCreateSchema, { name: 'IdP', role: 'OWNER' })).toMatch(/^role: /)
    expect(failure(OrganizationApiTokenCreateSchema, { name: 'IdP' })).toMatch(/^role: /)
    expect(v.is(OrganizationApiTokenParamsSchema, { id: ID, tokenId: ID })).toBe(true)
    expect(v.is(OrganizationApiTokenParamsSchema, { id: ID, tokenId: 'x' })).toBe(false)
    expect(v.is(OrganizationApiTokenParamsSchema, { id: 'x', tokenId: ID })).toBe(false)
  })
})

describe('a token as listed', () => {
  const token = {
    id: 't1',
    name: 'Entra ID',
    kind: 'scim',
    prefix: 'trs_0123456789ab',
    organizationId: ID,
    role: 'MEMBER',
    createdBy: { id: 'u1', firstName: 'Ada', lastName: 'Admin', email: 'ada@example.test' },
    createdAt: 'a',
    lastUsedAt: null,
    expiresAt: null,
  }

  it('reads every kind and each field, and the secret only in the creation answer', () => {
    for (const kind of ['personal', 'organization', 'scim'])
      expect(v.is(ApiTokenListSchema, { data: [{ ...token, kind }] }), kind).toBe(true)
    expect(v.is(ApiTokenListSchema, { data: [{ ...token, kind: 'other' }] })).toBe(false)
    for (const field of Object.keys(token)) {
      const { [field]: _left, ...without } = token as Record<string, unknown>
      expect(v.is(ApiTokenListSchema, { data: [without] }), field).toBe(false)
    }
    for (const field of Object.keys(token.createdBy)) {
      const { [field]: _left, ...createdBy } = token.createdBy as Record<string, string>
      expect(v.is(ApiTokenListSchema, { data: [{ ...token, createdBy }] }), field).toBe(false)
    }
    expect(v.is(ApiTokenListSchema, { data: [{ ...token, role: 'OWNER' }] })).toBe(false)
    expect(v.is(CreatedApiTokenSchema, { apiToken: token, token: 'trs_…' })).toBe(true)
    expect(v.is(CreatedApiTokenSchema, { apiToken: token })).toBe(false)
    expect(v.is(CreatedApiTokenSchema, { token: 'trs_…' })).toBe(false)
  })
})
