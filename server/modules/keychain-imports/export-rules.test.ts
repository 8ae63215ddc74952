// The keychain export read straight from its stream: what a spreadsheet receives, row by row and batch by batch.
import { describe, expect, it } from 'vitest'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { keychains, keys } from '../../db/schema.ts'
import { KEYCHAIN_EXPORT_BATCH, keychainCsv } from './export.ts'

const t = setupTestApp()
const HEADER = 'keychain_name,custodian_email,key_name,key_type,tag_code,home'

/** The whole stream, and how many chunks it came in. */
async function read(stream: ReadableStream<Uint8Array>) {
  const chunks: string[] = []
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  for await (const chunk of stream) chunks.push(decoder.decode(chunk))
  return { text: chunks.join(''), chunks }
}

async function manyKeychains(organizationId: string, count: number, name: (n: number) => string) {
  const now = t.clock.now()
  const rows = Array.from({ length: count }, (_, n) => ({
    organizationId,
    name: name(n),
    createdAt: now,
    updatedAt: now,
  }))
  for (let start = 0; start < rows.length; start += 500)
    await t.db.insert(keychains).values(rows.slice(start, start + 500))
}

describe('the keychain export', () => {
  it('one row per key in the order added, one empty row for a keychain without keys, by name in any case', async () => {
    const { organization } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const [tag] = await makeTags(t, organization.id, 1, 'EXP')
    const garage = await makeKeychain(t, organization.id, 'garage', member.id)
    await makeKeychain(t, organization.id, 'Vide')
    const cave = await makeKeychain(t, organization.id, 'Cave')
    const now = t.clock.now()
    await t.db.insert(keys).values({ keychainId: cave.id, name: 'Zinc', type: 'KEY', createdAt: now })
    await t.db
      .insert(keys)
      .values({ keychainId: cave.id, name: 'Badge', type: 'TAG', tagId: tag!.id, createdAt: now })
    await t.db.insert(keys).values({ keychainId: garage.id, name: 'Portail', type: 'KEY', createdAt: now })
    const { text, chunks } = await read(keychainCsv(t.db, organization.id))
    expect(text).toBe(
      [
        `\uFEFF${HEADER}`,
        'Cave,,Zinc,KEY,,',
        `Cave,,Badge,TAG,${tag!.code},`,
        `garage,${member.email},Portail,KEY,,`,
        'Vide,,,,,',
        '',
      ].join('\r\n'),
    )
    expect(chunks).toHaveLength(1)
  })

  it('writes a cell a spreadsheet would run as a formula after a quote', async () => {
    const { organization } = await organizationWithAdmin(t)
    const sum = await makeKeychain(t, organization.id, '=1+1')
    await t.db
      .insert(keys)
      .values({ keychainId: sum.id, name: '@cmd', type: 'KEY', createdAt: t.clock.now() })
    expect((await read(keychainCsv(t.db, organization.id))).text).toBe(
      `\uFEFF${HEADER}\r\n'=1+1,,'@cmd,KEY,,\r\n`,
    )
  })

  it('an organization without keychains: the byte order mark and the header alone', async () => {
    const { organization } = await organizationWithAdmin(t)
    expect((await read(keychainCsv(t.db, organization.id))).text).toBe(`\uFEFF${HEADER}\r\n`)
  })

  it(`reads ${KEYCHAIN_EXPORT_BATCH} keychains a statement: each once, in order, one header, one byte order mark`, async () => {
    const { organization } = await organizationWithAdmin(t)
    // Names whose case differs, so that lower(name) and name order differ, and a tie broken by the id.
    const count = KEYCHAIN_EXPORT_BATCH * 2 + 1
    await manyKeychains(
      organization.id,
      count,
      (n) => `${n % 2 ? 'k' : 'K'}${String(Math.floor(n / 2)).padStart(5, '0')}`,
    )
    const { text, chunks } = await read(keychainCsv(t.db, organization.id))
    expect(chunks).toHaveLength(3)
    const lines = text.split('\r\n')
    expect(lines[0]).toBe(`\uFEFF${HEADER}`)
    expect(lines.at(-1)).toBe('')
    const names = lines.slice(1, -1).map((line) => line.split(',')[0]!)
    expect(names).toHaveLength(count)
    expect(new Set(names).size).toBe(count)
    const lower = names.map((name) => name.toLowerCase())
    expect(lower).toEqual([...lower].sort())
    expect(text.split('\uFEFF')).toHaveLength(2)
    expect(text.split(HEADER)).toHaveLength(2)
  })

  it(`exactly ${KEYCHAIN_EXPORT_BATCH} keychains: one chunk and nothing after it`, async () => {
    const { organization } = await organizationWithAdmin(t)
    await manyKeychains(organization.id, KEYCHAIN_EXPORT_BATCH, (n) => `K${String(n).padStart(5, '0')}`)
    const { text, chunks } = await read(keychainCsv(t.db, organization.id))
    expect(chunks).toHaveLength(1)
    expect(text.split('\r\n')).toHaveLength(KEYCHAIN_EXPORT_BATCH + 2)
  })
})
