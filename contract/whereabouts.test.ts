import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { keeps, messages } from '../tests/schema-checks.ts'
import { type Person, PersonSchema } from './person.ts'
import { HookRefSchema, KEYCHAIN_WHEREABOUTS } from './whereabouts.ts'

const hookRef = { id: 'h1', code: 'A-01', placeId: 'p1', placeName: 'Board A' }
const person: Person = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' }

describe('where a keychain is', () => {
  it('is held, on its home hook, misplaced or unknown, in that order', () => {
    expect(KEYCHAIN_WHEREABOUTS).toEqual(['HELD', 'AT_HOME', 'MISPLACED', 'UNKNOWN'])
  })

  it('names a hook by its code and its place, and needs every one of them', () => {
    keeps(HookRefSchema, hookRef)
    for (const field of Object.keys(hookRef)) {
      const { [field as keyof typeof hookRef]: _, ...rest } = hookRef
      expect(v.is(HookRefSchema, rest), field).toBe(false)
    }
    expect(messages(HookRefSchema, { ...hookRef, code: 1 })).toHaveLength(1)
  })
})

describe('a person an answer names', () => {
  it('carries an id, an email and both names, each required', () => {
    keeps(PersonSchema, person)
    for (const field of Object.keys(person)) {
      const { [field as keyof Person]: _, ...rest } = person
      expect(v.is(PersonSchema, rest), field).toBe(false)
    }
    expect(v.is(PersonSchema, { ...person, email: null })).toBe(false)
  })
})
