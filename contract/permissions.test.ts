import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  ACTIONS,
  hasPermission,
  OPERATOR_PERMISSIONS,
  permission,
  permissionsFor,
  ROLE_PERMISSIONS,
  ROLES,
  RoleSchema,
  SUBJECTS,
  WITHHELD_FROM_TOKENS,
} from './permissions.ts'

/** The whole role × permission matrix, written out: a changed cell fails here. */
const MEMBER = [
  'create__handover',
  'create__scan',
  'pickup__transfer',
  'read__handover',
  'read__keychain',
  'read__key',
  'read__organization',
  'read__place',
  'read__plan',
  'read__stocktake',
  'read__tag',
  'read__transfer',
  'scan__stocktake',
]
const MANAGER = [
  ...MEMBER,
  'create__key',
  'create__keychain',
  'create__order',
  'create__transfer',
  'delete__key',
  'delete__keychain',
  'delete__transfer',
  'read__cart',
  'read__activity',
  'read__found_report',
  'read__member',
  'read__order',
  'read__subscription',
  'update__cart',
  'update__found_report',
  'update__key',
  'update__keychain',
  'update__tag',
  'create__place',
  'update__place',
  'delete__place',
  'create__stocktake',
  'update__stocktake',
]
const ADMIN = [
  ...MANAGER,
  'create__member',
  'delete__member',
  'delete__organization',
  'manage__subscription',
  'manage__webhook',
  'update__member',
  'update__organization',
]
const CONTACT = ['create__handover', 'create__scan', 'pickup__transfer', 'read__handover', 'read__transfer']
const OPERATOR = ['export__tag', 'manage__order']

const sorted = (list: readonly string[]) => [...list].sort()
/** A role's cells (the raw table may name one twice: `crud` repeats the reads). */
const cells = (list: readonly string[]) => [...new Set(list)].sort()

describe('the role × permission matrix', () => {
  it('names four roles, eight actions and seventeen subjects', () => {
    expect(ROLES).toEqual(['ADMIN', 'MANAGER', 'MEMBER', 'CONTACT'])
    expect(ACTIONS).toEqual(['read', 'create', 'update', 'delete', 'manage', 'scan', 'pickup', 'export'])
    expect(SUBJECTS).toEqual([
      'organization',
      'member',
      'keychain',
      'key',
      'tag',
      'transfer',
      'order',
      'cart',
      'plan',
      'subscription',
      'scan',
      'activity',
      'found_report',
      'webhook',
      'place',
      'stocktake',
      'handover',
    ])
    expect(v.is(RoleSchema, 'MANAGER')).toBe(true)
    expect(v.is(RoleSchema, 'OWNER')).toBe(false)
  })

  it('grants each role exactly its cells', () => {
    expect(cells(ROLE_PERMISSIONS.ADMIN)).toEqual(sorted(ADMIN))
    expect(cells(ROLE_PERMISSIONS.MANAGER)).toEqual(sorted(MANAGER))
    expect(cells(ROLE_PERMISSIONS.MEMBER)).toEqual(sorted(MEMBER))
    expect(cells(ROLE_PERMISSIONS.CONTACT)).toEqual(sorted(CONTACT))
    expect(OPERATOR_PERMISSIONS).toEqual(['manage__order', 'export__tag'])
  })

  it.each([
    ['ADMIN', false, ADMIN],
    ['MANAGER', false, MANAGER],
    ['MEMBER', false, MEMBER],
    ['CONTACT', false, CONTACT],
    [null, false, []],
    ['ADMIN', true, [...ADMIN, ...OPERATOR]],
    ['MANAGER', true, [...MANAGER, ...OPERATOR]],
    ['MEMBER', true, [...MEMBER, ...OPERATOR]],
    ['CONTACT', true, [...CONTACT, ...OPERATOR]],
    [null, true, OPERATOR],
  ] as const)('%s (operator: %s) has its list, sorted, without duplicates', (role, operator, expected) => {
    const list = permissionsFor(role, operator)
    expect(list).toEqual(sorted(expected))
    expect(Object.isFrozen(list)).toBe(true)
    // Computed once: the server asks on every request.
    expect(permissionsFor(role, operator)).toBe(list)
  })

  it('is not an operator by default', () => {
    expect(permissionsFor('MEMBER')).toEqual(sorted(MEMBER))
    expect(permissionsFor(null)).toEqual([])
  })

  it('withholds from any API token what makes a person, a credential or a flow of data outlive it', () => {
    expect(WITHHELD_FROM_TOKENS).toEqual([
      'create__member',
      'update__member',
      'delete__member',
      'update__organization',
      'delete__organization',
      'manage__webhook',
    ])
    for (const role of ROLES) {
      for (const operator of [false, true]) {
        const asSession = permissionsFor(role, operator, 'session')
        expect(permissionsFor(role, operator, 'token')).toEqual(
          asSession.filter((each) => !WITHHELD_FROM_TOKENS.includes(each)),
        )
      }
    }
    expect(permissionsFor('ADMIN', false, 'session')).toEqual(
      expect.arrayContaining([...WITHHELD_FROM_TOKENS]),
    )
  })
})

describe('checking a permission', () => {
  it('writes a permission as action__subject', () => {
    expect(permission('pickup', 'transfer')).toBe('pickup__transfer')
  })

  it('compares in lowercase, and finds any entry of the list', () => {
    expect(hasPermission(['read__tag', 'PICKUP__Transfer'], 'pickup', 'transfer')).toBe(true)
    expect(hasPermission(['read__tag', 'pickup__transfer'], 'read', 'tag')).toBe(true)
    expect(hasPermission(new Set(['read__tag']), 'update', 'tag')).toBe(false)
    expect(hasPermission([], 'read', 'tag')).toBe(false)
  })
})
