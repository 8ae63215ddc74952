import { describe, expect, it } from 'vitest'
import { permissionsFor } from '../../contract/permissions.ts'
import { createAbility } from './permissions.ts'

describe('ability', () => {
  it('allows nothing before sign-in or on failure', () => {
    expect(createAbility(undefined).can('read', 'keychain')).toBe(false)
    expect(createAbility(null).size).toBe(0)
    expect(createAbility([]).can('read', 'organization')).toBe(false)
  })

  it('compares action__subject in lowercase', () => {
    const ability = createAbility(['READ__Keychain', 'create__scan'])
    expect(ability.can('read', 'keychain')).toBe(true)
    expect(ability.can('create', 'scan')).toBe(true)
    expect(ability.can('delete', 'keychain')).toBe(false)
  })

  it('gives each role what the matrix says', () => {
    const admin = createAbility(permissionsFor('ADMIN'))
    const member = createAbility(permissionsFor('MEMBER'))
    const contact = createAbility(permissionsFor('CONTACT'))
    expect(admin.can('update', 'member')).toBe(true)
    expect(member.can('update', 'member')).toBe(false)
    expect(member.can('read', 'keychain')).toBe(true)
    expect(contact.can('read', 'keychain')).toBe(false)
    expect(contact.can('pickup', 'transfer')).toBe(true)
    expect(createAbility(permissionsFor(null, true)).can('manage', 'order')).toBe(true)
  })
})
