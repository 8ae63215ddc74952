import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { failure } from '../tests/schema-checks.ts'
import {
  SCIM_CONTENT_TYPE,
  SCIM_ERROR_SCHEMA,
  SCIM_LIST_SCHEMA,
  SCIM_PAGE_MAX,
  SCIM_USER_SCHEMA,
  ScimListQuerySchema,
  ScimPatchSchema,
  ScimUserInputSchema,
} from './scim.ts'

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'

describe('the SCIM names', () => {
  it('are RFC 7643/7644’s', () => {
    expect(SCIM_USER_SCHEMA).toBe('urn:ietf:params:scim:schemas:core:2.0:User')
    expect(SCIM_LIST_SCHEMA).toBe('urn:ietf:params:scim:api:messages:2.0:ListResponse')
    expect(SCIM_ERROR_SCHEMA).toBe('urn:ietf:params:scim:api:messages:2.0:Error')
    expect(SCIM_CONTENT_TYPE).toBe('application/scim+json')
    expect(SCIM_PAGE_MAX).toBe(100)
  })
})

describe('a SCIM user as the provider sends it', () => {
  const user = (extra: Record<string, unknown> = {}) => ({
    schemas: [SCIM_USER_SCHEMA],
    userName: '  Ada.Lovelace@Example.COM ',
    ...extra,
  })

  it('keeps the address normalized, active by default, and the attributes it does not know', () => {
    expect(v.parse(ScimUserInputSchema, user({ title: 'Engineer' }))).toEqual({
      schemas: [SCIM_USER_SCHEMA],
      userName: 'ada.lovelace@example.com',
      active: true,
      title: 'Engineer',
    })
    const full = v.parse(
      ScimUserInputSchema,
      user({
        externalId: 'x'.repeat(256),
        name: { givenName: ` ${'a'.repeat(100)} `, familyName: null, formatted: 'ignored' },
        active: false,
      }),
    )
    expect(full).toMatchObject({
      externalId: 'x'.repeat(256),
      name: { givenName: 'a'.repeat(100), familyName: null, formatted: 'ignored' },
      active: false,
    })
    expect(v.parse(ScimUserInputSchema, user({ externalId: null, name: null }))).toMatchObject({
      externalId: null,
      name: null,
    })
    // Other schemas beside the core one (the enterprise extension) are fine.
    expect(v.is(ScimUserInputSchema, user({ schemas: ['urn:x:extension', SCIM_USER_SCHEMA] }))).toBe(true)
  })

  it('refuses what it cannot keep, saying which attribute and why', () => {
    expect(failure(ScimUserInputSchema, user({ schemas: ['urn:x:other'] }))).toBe(
      `schemas: schemas must include ${SCIM_USER_SCHEMA}.`,
    )
    expect(failure(ScimUserInputSchema, user({ schemas: 'x' }))).toMatch(/^schemas: /)
    expect(failure(ScimUserInputSchema, user({ userName: 42 }))).toBe('userName: userName is required.')
    expect(failure(ScimUserInputSchema, user({ userName: 'ada' }))).toBe(
      'userName: userName must be an e-mail address.',
    )
    expect(failure(ScimUserInputSchema, user({ externalId: 'x'.repeat(257) }))).toBe(
      'externalId: externalId is too long.',
    )
    expect(failure(ScimUserInputSchema, user({ name: { givenName: 'a'.repeat(101) } }))).toBe(
      'name.givenName: A name has at most 100 characters.',
    )
    expect(failure(ScimUserInputSchema, user({ name: { familyName: 'b'.repeat(101) } }))).toBe(
      'name.familyName: A name has at most 100 characters.',
    )
    expect(failure(ScimUserInputSchema, user({ active: 'true' }))).toBe('active: active is true or false.')
  })
})

describe('a SCIM patch', () => {
  const patch = (operations: unknown) => ({ schemas: [PATCH], Operations: operations })

  it('takes add, replace and remove in any case, with or without a path or value', () => {
    expect(
      v.parse(
        ScimPatchSchema,
        patch([
          { op: 'Replace', path: 'active', value: 'False' },
          { op: 'ADD', value: { title: 'x' } },
          { op: 'remove', path: 'externalId' },
        ]),
      ).Operations,
    ).toEqual([
      { op: 'replace', path: 'active', value: 'False' },
      { op: 'add', value: { title: 'x' } },
      { op: 'remove', path: 'externalId' },
    ])
    expect(v.parse(ScimPatchSchema, patch(Array(50).fill({ op: 'add' }))).Operations).toHaveLength(50)
  })

  it('refuses another message, an unknown operation, none or too many', () => {
    expect(failure(ScimPatchSchema, { schemas: [SCIM_USER_SCHEMA], Operations: [{ op: 'add' }] })).toBe(
      `schemas: schemas must include ${PATCH}.`,
    )
    expect(failure(ScimPatchSchema, patch([{ op: 'move' }]))).toMatch(/^Operations\.0\.op: /)
    expect(failure(ScimPatchSchema, patch([{ op: 7 }]))).toBe(
      'Operations.0.op: op is add, replace or remove.',
    )
    expect(failure(ScimPatchSchema, patch([]))).toBe('Operations: Operations is empty.')
    expect(failure(ScimPatchSchema, patch(Array(51).fill({ op: 'add' })))).toMatch(/^Operations: /)
    expect(failure(ScimPatchSchema, patch([{ op: 'add', path: 3 }]))).toMatch(/^Operations\.0\.path: /)
  })
})

describe('a SCIM list query', () => {
  it('defaults to the first page of a hundred, and reads whole numbers', () => {
    expect(v.parse(ScimListQuerySchema, {})).toEqual({ startIndex: 1, count: 100 })
    expect(v.parse(ScimListQuerySchema, { startIndex: '0', count: '999999999', filter: 'x' })).toEqual({
      startIndex: 0,
      count: 999999999,
      filter: 'x',
    })
    expect(v.parse(ScimListQuerySchema, { filter: 'f'.repeat(1000) }).filter).toHaveLength(1000)
  })

  it('refuses what is not a whole number, and a filter over 1,000 characters', () => {
    expect(failure(ScimListQuerySchema, { startIndex: '-1' })).toBe(
      'startIndex: startIndex is a whole number.',
    )
    expect(failure(ScimListQuerySchema, { count: '1.5' })).toBe('count: count is a whole number.')
    expect(failure(ScimListQuerySchema, { count: '1000000000' })).toBe('count: count is a whole number.')
    expect(failure(ScimListQuerySchema, { count: ' 5' })).toBe('count: count is a whole number.')
    expect(failure(ScimListQuerySchema, { count: '5 ' })).toBe('count: count is a whole number.')
    expect(failure(ScimListQuerySchema, { filter: 'f'.repeat(1001) })).toBe('filter: The filter is too long.')
  })
})
