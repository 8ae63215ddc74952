import { describe, expect, it } from 'vitest'
import type { ScimPatchOperation } from '../../../contract/scim.ts'
import { ScimError } from './errors.ts'
import { changeOfPatch } from './patch.ts'

const replace = (path: string | undefined, value?: unknown): ScimPatchOperation => ({
  op: 'replace',
  ...(path === undefined ? {} : { path }),
  ...(value === undefined ? {} : { value }),
})
const remove = (path?: string): ScimPatchOperation => ({
  op: 'remove',
  ...(path === undefined ? {} : { path }),
})

/** What changeOfPatch threw, as the identity provider reads it. */
function refusalOf(operations: ScimPatchOperation[]) {
  try {
    changeOfPatch(operations)
  } catch (error) {
    if (!(error instanceof ScimError)) throw error
    return { status: error.status, scimType: error.scimType, detail: error.message }
  }
  throw new Error(`${JSON.stringify(operations)} was accepted`)
}

const invalidValue = (detail: string) => ({ status: 400, scimType: 'invalidValue', detail })

describe('changeOfPatch: active', () => {
  it('takes true and false, and the strings True and False in any case', () => {
    expect(changeOfPatch([replace('active', true)])).toEqual({ active: true })
    expect(changeOfPatch([replace('active', false)])).toEqual({ active: false })
    expect(changeOfPatch([replace('active', 'True')])).toEqual({ active: true })
    expect(changeOfPatch([replace('active', 'False')])).toEqual({ active: false })
    expect(changeOfPatch([replace('active', 'TRUE')])).toEqual({ active: true })
    expect(changeOfPatch([replace('active', 'false')])).toEqual({ active: false })
    expect(changeOfPatch([replace('active', 'true')])).toEqual({ active: true })
  })

  it('refuses anything else, text around true included, with invalidValue', () => {
    for (const value of [
      'yes',
      'truex',
      'xtrue',
      ' true',
      'falsey',
      '',
      1,
      0,
      null,
      ['true'],
      { active: true },
    ]) {
      expect(refusalOf([replace('active', value)])).toEqual(invalidValue('active is true or false.'))
    }
  })

  it('cannot be removed (mutability)', () => {
    expect(refusalOf([remove('active')])).toEqual({
      status: 400,
      scimType: 'mutability',
      detail: 'active cannot be removed.',
    })
  })
})

describe('changeOfPatch: userName', () => {
  it('takes an e-mail address, trimmed and in lower case', () => {
    expect(changeOfPatch([replace('userName', ' Ada@Example.COM ')])).toEqual({ userName: 'ada@example.com' })
  })

  it('refuses what is not an address, and cannot be removed', () => {
    for (const value of ['not an address', '', 42, null]) {
      expect(refusalOf([replace('userName', value)])).toEqual(
        invalidValue('userName must be an e-mail address.'),
      )
    }
    expect(refusalOf([remove('userName')])).toEqual({
      status: 400,
      scimType: 'mutability',
      detail: 'userName cannot be removed.',
    })
  })
})

describe('changeOfPatch: externalId', () => {
  it('sets a trimmed text of up to 256 characters, and clears it when removed or null', () => {
    expect(changeOfPatch([replace('externalId', ' e-1 ')])).toEqual({ externalId: 'e-1' })
    expect(changeOfPatch([replace('externalId', 'x'.repeat(256))])).toEqual({ externalId: 'x'.repeat(256) })
    expect(changeOfPatch([replace('externalId', `  ${'x'.repeat(256)}  `)])).toEqual({
      externalId: 'x'.repeat(256),
    })
    expect(changeOfPatch([remove('externalId')])).toEqual({ externalId: null })
    expect(changeOfPatch([replace('externalId', null)])).toEqual({ externalId: null })
  })

  it('refuses a longer text or one that is not text', () => {
    for (const value of ['x'.repeat(257), 7, true, { id: 'x' }]) {
      expect(refusalOf([replace('externalId', value)])).toEqual(
        invalidValue('externalId is a text of at most 256 characters.'),
      )
    }
  })
})

describe('changeOfPatch: names', () => {
  it('sets name.givenName and name.familyName, trimmed, up to 100 characters', () => {
    expect(
      changeOfPatch([
        replace('name.givenName', ' Grace '),
        replace('name.familyName', ` ${'h'.repeat(100)} `),
      ]),
    ).toEqual({ givenName: 'Grace', familyName: 'h'.repeat(100) })
    expect(changeOfPatch([replace('name.givenName', '')])).toEqual({ givenName: '' })
  })

  it('empties a name part that is removed', () => {
    expect(changeOfPatch([remove('name.givenName')])).toEqual({ givenName: '' })
    expect(changeOfPatch([remove('name.familyName')])).toEqual({ familyName: '' })
  })

  it('refuses a name part longer than 100 characters or not text, naming the part', () => {
    expect(refusalOf([replace('name.givenName', 'g'.repeat(101))])).toEqual(
      invalidValue('name.givenName is a text of at most 100 characters.'),
    )
    expect(refusalOf([replace('name.familyName', 'f'.repeat(101))])).toEqual(
      invalidValue('name.familyName is a text of at most 100 characters.'),
    )
    expect(refusalOf([replace('name.givenName', null)])).toEqual(
      invalidValue('name.givenName is a text of at most 100 characters.'),
    )
    expect(refusalOf([replace('name.familyName', 5)])).toEqual(
      invalidValue('name.familyName is a text of at most 100 characters.'),
    )
  })

  it('sets both parts from a name object, ignoring the parts it does not keep', () => {
    expect(
      changeOfPatch([
        replace('name', { givenName: ' Ada ', familyName: 'King', formatted: 'x', middleName: 'y' }),
      ]),
    ).toEqual({ givenName: 'Ada', familyName: 'King' })
    expect(changeOfPatch([replace('name', { familyName: 'King' })])).toEqual({ familyName: 'King' })
    expect(changeOfPatch([replace('name', {})])).toEqual({})
  })

  it('empties both parts when name is removed or null', () => {
    expect(changeOfPatch([remove('name')])).toEqual({ givenName: '', familyName: '' })
    expect(changeOfPatch([replace('name', null)])).toEqual({ givenName: '', familyName: '' })
  })

  it('refuses a name that is not an object, and a bad part of a name object', () => {
    for (const value of ['Ada King', 3, true]) {
      expect(refusalOf([replace('name', value)])).toEqual(invalidValue('name is an object.'))
    }
    expect(refusalOf([replace('name', { givenName: 9 })])).toEqual(
      invalidValue('name.givenName is a text of at most 100 characters.'),
    )
  })
})

describe('changeOfPatch: paths and operations', () => {
  it('reads paths in any case', () => {
    expect(
      changeOfPatch([
        replace('ACTIVE', false),
        replace('UserName', 'a@b.example'),
        replace('EXTERNALID', 'e'),
        replace('Name.GivenName', 'G'),
        replace('NAME.FAMILYNAME', 'F'),
      ]),
    ).toEqual({ active: false, userName: 'a@b.example', externalId: 'e', givenName: 'G', familyName: 'F' })
    expect(changeOfPatch([remove('Name')])).toEqual({ givenName: '', familyName: '' })
    expect(changeOfPatch([replace('NAME', { givenName: 'G' })])).toEqual({ givenName: 'G' })
  })

  it('ignores the attributes it does not keep, filtered paths included', () => {
    expect(
      changeOfPatch([
        replace('title', 'Engineer'),
        { op: 'add', path: 'emails[type eq "work"].value', value: 'x@y.example' },
        remove('phoneNumbers'),
        replace('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', 'R&D'),
        replace('name.middleName', 'M'),
      ]),
    ).toEqual({})
  })

  it('applies the operations in order, a later one winning', () => {
    expect(
      changeOfPatch([
        replace('active', false),
        { op: 'add', path: 'externalId', value: 'first' },
        replace('active', 'True'),
        remove('externalId'),
        replace('name.givenName', 'Ada'),
      ]),
    ).toEqual({ active: true, externalId: null, givenName: 'Ada' })
    expect(changeOfPatch([])).toEqual({})
  })

  it('needs a value for add and replace with a path, naming the operation and the path', () => {
    expect(refusalOf([replace('active')])).toEqual(invalidValue('replace active needs a value.'))
    expect(refusalOf([{ op: 'add', path: 'name.givenName' }])).toEqual(
      invalidValue('add name.givenName needs a value.'),
    )
    expect(refusalOf([{ op: 'add', path: 'title' }])).toEqual(invalidValue('add title needs a value.'))
  })

  it('takes an object of attributes without a path, as Okta sends it', () => {
    expect(
      changeOfPatch([
        {
          op: 'replace',
          value: {
            active: 'False',
            userName: 'Grace@Example.com',
            externalId: 'g-1',
            'name.givenName': 'Grace',
            name: { familyName: 'Hopper' },
            title: 'ignored',
          },
        },
      ]),
    ).toEqual({
      active: false,
      userName: 'grace@example.com',
      externalId: 'g-1',
      givenName: 'Grace',
      familyName: 'Hopper',
    })
    expect(changeOfPatch([{ op: 'add', value: { externalId: null, name: null } }])).toEqual({
      externalId: null,
      givenName: '',
      familyName: '',
    })
    expect(changeOfPatch([{ op: 'add', value: {} }])).toEqual({})
  })

  it('refuses a value without a path that is not an object of attributes', () => {
    expect(refusalOf([replace(undefined, 'x')])).toEqual(
      invalidValue('replace without a path takes an object of attributes.'),
    )
    expect(refusalOf([{ op: 'add', value: null }])).toEqual(
      invalidValue('add without a path takes an object of attributes.'),
    )
    expect(refusalOf([{ op: 'add', value: [{ active: true }] }])).toEqual(
      invalidValue('add without a path takes an object of attributes.'),
    )
    expect(refusalOf([{ op: 'replace' }])).toEqual(
      invalidValue('replace without a path takes an object of attributes.'),
    )
    expect(refusalOf([{ op: 'replace', value: true }])).toEqual(
      invalidValue('replace without a path takes an object of attributes.'),
    )
  })

  it('refuses remove without a path (noTarget), even with a value', () => {
    const noTarget = { status: 400, scimType: 'noTarget', detail: 'remove needs a path.' }
    expect(refusalOf([remove()])).toEqual(noTarget)
    expect(refusalOf([{ op: 'remove', value: { active: false } }])).toEqual(noTarget)
  })

  it('refuses a bad operation after good ones', () => {
    expect(refusalOf([replace('active', true), replace('active', 'maybe')])).toEqual(
      invalidValue('active is true or false.'),
    )
  })

  it('removes with a path and no value, the value of a remove being ignored', () => {
    expect(changeOfPatch([remove('externalId')])).toEqual({ externalId: null })
    expect(changeOfPatch([{ op: 'remove', path: 'name.givenName', value: 'Ada' }])).toEqual({ givenName: '' })
    expect(changeOfPatch([{ op: 'remove', path: 'externalId', value: 'e-1' }])).toEqual({ externalId: null })
  })
})
