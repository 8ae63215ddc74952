import { describe, expect, it } from 'vitest'
import { ScimError } from './errors.ts'
import { parseScimFilter } from './filter.ts'

/** What parseScimFilter threw, as the identity provider reads it. */
function refusalOf(filter: string) {
  try {
    parseScimFilter(filter)
  } catch (error) {
    if (!(error instanceof ScimError)) throw error
    return { status: error.status, scimType: error.scimType, detail: error.message }
  }
  throw new Error(`${filter} was accepted`)
}

const INVALID_FILTER = {
  status: 400,
  scimType: 'invalidFilter',
  detail: 'Only the filters userName eq "…" and externalId eq "…" are supported.',
}

describe('parseScimFilter', () => {
  it('reads userName eq, with the address trimmed and in lower case', () => {
    expect(parseScimFilter('userName eq "ada@example.com"')).toEqual({
      attribute: 'userName',
      value: 'ada@example.com',
    })
    expect(parseScimFilter('userName eq " Ada@Example.COM "')).toEqual({
      attribute: 'userName',
      value: 'ada@example.com',
    })
  })

  it('reads externalId eq and keeps its value exactly as sent', () => {
    expect(parseScimFilter('externalId eq " AbC-9 "')).toEqual({ attribute: 'externalId', value: ' AbC-9 ' })
    expect(parseScimFilter('externalId eq "x"')).toEqual({ attribute: 'externalId', value: 'x' })
  })

  it('takes the attribute name and the operator in any case', () => {
    expect(parseScimFilter('USERNAME EQ "A@B.EXAMPLE"')).toEqual({
      attribute: 'userName',
      value: 'a@b.example',
    })
    expect(parseScimFilter('username Eq "a@b.example"')).toEqual({
      attribute: 'userName',
      value: 'a@b.example',
    })
    expect(parseScimFilter('EXTERNALID eQ "Id"')).toEqual({ attribute: 'externalId', value: 'Id' })
    expect(parseScimFilter('externalid eq "Id"')).toEqual({ attribute: 'externalId', value: 'Id' })
  })

  it('allows any whitespace around and between the parts, and none at the ends', () => {
    expect(parseScimFilter('  externalId \t eq\n  "v"  ')).toEqual({ attribute: 'externalId', value: 'v' })
    expect(parseScimFilter('externalId eq "v"')).toEqual({ attribute: 'externalId', value: 'v' })
    expect(parseScimFilter(' externalId eq "v" ')).toEqual({ attribute: 'externalId', value: 'v' })
  })

  it('unescapes every backslash-escaped character of the value, quotes and backslashes included', () => {
    expect(parseScimFilter(String.raw`externalId eq "a\"b\\c\"d"`)).toEqual({
      attribute: 'externalId',
      value: 'a"b\\c"d',
    })
    expect(parseScimFilter(String.raw`externalId eq "\x\y"`)).toEqual({
      attribute: 'externalId',
      value: 'xy',
    })
    expect(parseScimFilter(String.raw`externalId eq "\""`)).toEqual({ attribute: 'externalId', value: '"' })
  })

  it('reads an empty value and a value with spaces, digits and punctuation', () => {
    expect(parseScimFilter('externalId eq ""')).toEqual({ attribute: 'externalId', value: '' })
    expect(parseScimFilter('externalId eq "Ab 12 _-.@/"')).toEqual({
      attribute: 'externalId',
      value: 'Ab 12 _-.@/',
    })
  })

  it('refuses another attribute, operator or a compound filter with invalidFilter', () => {
    for (const filter of [
      'displayName eq "Ada"',
      'userName co "a"',
      'userName sw "a"',
      'userName ne "a"',
      'userName eq "a" or userName eq "b"',
      'userName eq "a" and externalId eq "b"',
      'not userName eq "a"',
      'xuserName eq "a"',
      'userNamex eq "a"',
      'emails.value eq "a@b.example"',
      '',
      '   ',
    ]) {
      expect(refusalOf(filter)).toEqual(INVALID_FILTER)
    }
  })

  it('refuses a malformed comparison: missing spaces, quotes or value, or text after it', () => {
    for (const filter of [
      'userNameeq "a"',
      'userName eq"a"',
      'userName eq a',
      "userName eq 'a'",
      'userName eq',
      'userName eq "a',
      'userName eq "a"b',
      'userName eq "a" x',
      'userName eq "a"b"',
      String.raw`userName eq "a\"`,
      'userName eq "a" "b"',
    ]) {
      expect(refusalOf(filter)).toEqual(INVALID_FILTER)
    }
  })
})
