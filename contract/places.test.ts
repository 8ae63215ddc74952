import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { HookCodeSchema, HookRangeSchema, hookLabelUrl, parseLocationLabel, placeLabelUrl } from './places.ts'

const ID = 'abcdefghijklmn23'

describe('location labels', () => {
  it('reads back what a hook or place label encodes, whatever the host or the case', () => {
    expect(parseLocationLabel(hookLabelUrl('https://keys.example/', ID))).toEqual({
      kind: 'hook',
      publicId: ID,
    })
    expect(parseLocationLabel(placeLabelUrl('https://keys.example', ID))).toEqual({
      kind: 'place',
      publicId: ID,
    })
    expect(parseLocationLabel(`http://old.host/h/${ID.toUpperCase()}/`)).toEqual({
      kind: 'hook',
      publicId: ID,
    })
    expect(parseLocationLabel(` H:${ID} `)).toEqual({ kind: 'hook', publicId: ID })
    expect(parseLocationLabel(`p:${ID}`)).toEqual({ kind: 'place', publicId: ID })
  })

  it('names nothing for a tag, a short id, another path or garbage', () => {
    for (const value of [
      `https://keys.example/tags/${ID}abcd`,
      'https://keys.example/h/abc',
      `https://keys.example/x/${ID}`,
      `h:${ID}0`,
      ID,
      'AGC-00042',
      'https://[bad',
      '',
    ]) {
      expect(parseLocationLabel(value), value).toBeNull()
    }
  })
})

describe('hook codes and ranges', () => {
  it('upper-cases codes and refuses what cannot be printed plainly', () => {
    expect(v.parse(HookCodeSchema, ' a-01 ')).toBe('A-01')
    for (const bad of ['', 'A--1', '-A', 'A-', 'A 1', 'A'.repeat(17)])
      expect(v.is(HookCodeSchema, bad), bad).toBe(false)
  })

  it('takes a range of at most 500, in order, with a default width of 2', () => {
    expect(v.parse(HookRangeSchema, { prefix: 'a-', from: 1, to: 60 })).toEqual({
      prefix: 'A-',
      from: 1,
      to: 60,
      width: 2,
    })
    expect(v.is(HookRangeSchema, { prefix: '', from: 1, to: 500 })).toBe(true)
    expect(v.is(HookRangeSchema, { prefix: '', from: 1, to: 501 })).toBe(false)
    expect(v.is(HookRangeSchema, { prefix: 'A', from: 5, to: 4 })).toBe(false)
    expect(v.is(HookRangeSchema, { prefix: 'A B', from: 1, to: 2 })).toBe(false)
  })
})
