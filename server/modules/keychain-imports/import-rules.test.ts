// The import's rules, row by row: what each row error says and where, how rows group into keychains, who may be
// a custodian, which tags a file may name, and what a commit writes (keychains, custody entries, keys, one ledger
// entry). Through the services, on the test database.
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { IMPORT_ERRORS_SHOWN, IMPORT_SAMPLE_SIZE } from '../../../contract/keychain-import.ts'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { custodyLog, keychains, keys, organizationEvents } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { parseKeychainCsv } from './csv.ts'
import { commitImport, previewImport } from './service.ts'

const t = setupTestApp()

const HEADER = 'keychain_name,custodian_email,key_name,key_type,tag_code'
const csvOf = (...rows: string[]) => [HEADER, ...rows].join('\r\n')

async function world() {
  const { organization, admin } = await organizationWithAdmin(t)
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const tags = await makeTags(t, organization.id, 4, 'IMP')
  return { organization, admin, member, tags }
}

const commit = async (organizationId: string, actorId: string, csv: string) => {
  const file = await parseKeychainCsv(csv)
  return t.db.transaction((tx) => commitImport(tx, { organizationId, actorId, file, now: t.clock.now() }))
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('not refused')
}

describe('checking an import, row by row', () => {
  it('says each row error with its message and the value as written (at most 120 characters)', async () => {
    const { organization, tags } = await world()
    const longName = `${'x'.repeat(119)}yz`
    const preview = await previewImport(
      t.db,
      organization.id,
      csvOf(
        `${longName},,Porte,KEY,`,
        'A,nobody@,Porte,KEY,',
        'B,,,KEY,',
        `B,,${'k'.repeat(121)},KEY,`,
        'B,,Porte,badge,',
        'B,,Badge,TAG,',
        `B,,Porte,KEY,${tags[0]!.code.toLowerCase()}`,
        'B,,"Tab\tkey",KEY,',
        'B,,Porte,KEY,,more',
        'B,,Badge,TAG,NOPE-9',
      ),
    )
    expect(preview.errors).toEqual([
      {
        line: 2,
        column: 'keychain_name',
        code: 'keychain_name_too_long',
        message: 'The keychain name is too long (at most 120 characters).',
        value: longName.slice(0, 120),
      },
      {
        line: 3,
        column: 'custodian_email',
        code: 'custodian_invalid',
        message: 'The custodian e-mail is not a valid address.',
        value: 'nobody@',
      },
      {
        line: 4,
        column: 'key_name',
        code: 'key_name_required',
        message: 'The key name is required.',
        value: '',
      },
      {
        line: 5,
        column: 'key_name',
        code: 'key_name_too_long',
        message: 'The key name is too long (at most 120 characters).',
        value: 'k'.repeat(120),
      },
      {
        line: 6,
        column: 'key_type',
        code: 'key_type_invalid',
        message: 'The key type must be KEY or TAG.',
        value: 'badge',
      },
      {
        line: 7,
        column: 'tag_code',
        code: 'tag_code_required',
        message: 'A TAG key needs a tag code.',
        value: '',
      },
      {
        line: 8,
        column: 'tag_code',
        code: 'tag_code_not_allowed',
        message: 'A KEY has no tag code (use the type TAG).',
        value: tags[0]!.code.toLowerCase(),
      },
      {
        line: 9,
        column: 'key_name',
        code: 'text_invalid',
        message: 'Line breaks, tabs and other control characters are not allowed here.',
        value: 'Tab\tkey',
      },
      {
        line: 10,
        column: null,
        code: 'column_count',
        message: 'The row has more cells than the header has columns.',
        value: '',
      },
      {
        line: 11,
        column: 'tag_code',
        code: 'tag_unknown',
        message: 'No tag of the organization has this code.',
        value: 'NOPE-9',
      },
    ])
    expect(preview.errorCount).toBe(10)
  })

  it('says the keychain-wide errors with their messages: required, exists, custodian not a member or in conflict, tag taken or repeated', async () => {
    const { organization, admin, member, tags } = await world()
    const disabled = await signedInMember(t, organization.id, 'MEMBER', { status: 'DISABLED' })
    const existing = await makeKeychain(t, organization.id, 'Déjà là')
    await t.db.insert(keys).values({
      keychainId: existing.id,
      name: 'Pris',
      type: 'TAG',
      tagId: tags[1]!.id,
      createdAt: t.clock.now(),
    })
    const preview = await previewImport(
      t.db,
      organization.id,
      csvOf(
        ' ,,Porte,KEY,',
        'Déjà là,,Porte,KEY,',
        `C,${disabled.email},Porte,KEY,`,
        `D,${member.email},Porte,KEY,`,
        `D,${admin.profile.email},Fenêtre,KEY,`,
        `D,,Badge,TAG,${tags[1]!.code}`,
        `D,,Badge,TAG,${tags[2]!.code}`,
        `E,,Badge,tag,${tags[2]!.code.toLowerCase()}`,
      ),
    )
    expect(
      preview.errors.map(({ line, column, code, message, value }) => [line, column, code, message, value]),
    ).toEqual([
      [2, 'keychain_name', 'keychain_name_required', 'The keychain name is required.', ''],
      [
        3,
        'keychain_name',
        'keychain_exists',
        'A keychain of this name already exists in the organization.',
        'Déjà là',
      ],
      [
        4,
        'custodian_email',
        'custodian_not_member',
        'The custodian must be a member of the organization.',
        disabled.email,
      ],
      [
        6,
        'custodian_email',
        'custodian_conflict',
        'Another row gives this keychain a different custodian.',
        admin.profile.email,
      ],
      [7, 'tag_code', 'tag_taken', 'This tag is already on a key.', tags[1]!.code],
      [
        9,
        'tag_code',
        'tag_repeated',
        'This tag code is already on an earlier row.',
        tags[2]!.code.toLowerCase(),
      ],
    ])
  })

  it('orders errors by line, then by column as the file has them, a row-wide error first', async () => {
    const { organization } = await world()
    await makeKeychain(t, organization.id, 'Old')
    const stranger = await organizationWithAdmin(t, 'Ailleurs')
    // Found late (against the database) but listed in place: the keychain's name, its custodian, its tag.
    const preview = await previewImport(
      t.db,
      organization.id,
      csvOf(
        `Old,${stranger.admin.profile.email},,CARD,,x`,
        'New,,Badge,TAG,NOPE-1',
        `,,${'k'.repeat(121)},,NOPE-2`,
      ),
    )
    expect(preview.errors.map(({ line, column }) => [line, column])).toEqual([
      [2, null],
      [2, 'keychain_name'],
      [2, 'custodian_email'],
      [2, 'key_name'],
      [2, 'key_type'],
      [3, 'tag_code'],
      [4, 'keychain_name'],
      [4, 'key_name'],
      [4, 'tag_code'],
    ])
  })

  it('reads the key type in any case ("clé" is a KEY), and guesses it from the tag code when empty', async () => {
    const { organization, tags } = await world()
    const preview = await previewImport(
      t.db,
      organization.id,
      csvOf(
        'A,,One,key,',
        'A,,Two,Clé,',
        'A,,Three,CLE,',
        'A,,Four,,',
        `A,,Five,Tag,${tags[0]!.code}`,
        `A,,Six,,${tags[1]!.code.toLowerCase()}`,
        'A,,Seven,keys,',
        'A,,Eight,cles,',
      ),
    )
    expect(preview.sample[0]!.keys).toEqual([
      { name: 'One', type: 'KEY', tagCode: null },
      { name: 'Two', type: 'KEY', tagCode: null },
      { name: 'Three', type: 'KEY', tagCode: null },
      { name: 'Four', type: 'KEY', tagCode: null },
      { name: 'Five', type: 'TAG', tagCode: tags[0]!.code },
      { name: 'Six', type: 'TAG', tagCode: tags[1]!.code },
    ])
    expect(preview.errors.map(({ line, code }) => [line, code])).toEqual([
      [8, 'key_type_invalid'],
      [9, 'key_type_invalid'],
    ])
    expect(preview.tags).toBe(2)
    expect(preview.keys).toBe(6)
  })

  it('makes a key of a row with only a type or only a tag code, and none of a row with neither', async () => {
    const { organization, tags } = await world()
    const preview = await previewImport(
      t.db,
      organization.id,
      csvOf('A,,,KEY,', `B,,,,${tags[0]!.code}`, 'C,,,,'),
    )
    expect(preview.errors.map(({ line, column, code }) => [line, column, code])).toEqual([
      [2, 'key_name', 'key_name_required'],
      [3, 'key_name', 'key_name_required'],
    ])
    expect(preview.sample.map((keychain) => [keychain.name, keychain.keys])).toEqual([
      ['A', [{ name: '', type: 'KEY', tagCode: null }]],
      ['B', [{ name: '', type: 'TAG', tagCode: tags[0]!.code }]],
      ['C', []],
    ])
  })

  it('groups rows by the keychain name as written: its first line, its custodian from any row, names in any case apart', async () => {
    const { organization, member } = await world()
    const invited = await signedInMember(t, organization.id, 'MEMBER', { status: 'INVITED' })
    const preview = await previewImport(
      t.db,
      organization.id,
      csvOf(
        'Cave,,Porte,KEY,',
        'cave,,Grille,KEY,',
        `Cave,${member.email.toUpperCase()},Soupirail,KEY,`,
        'Cave,,Trappe,KEY,',
        `Cave,${member.email},Volet,KEY,`,
        `Garage,${invited.email},,,`,
      ),
    )
    expect(preview.errors).toEqual([])
    expect(preview.sample).toEqual([
      {
        line: 2,
        name: 'Cave',
        custodianEmail: member.email,
        home: null,
        keys: ['Porte', 'Soupirail', 'Trappe', 'Volet'].map((name) => ({ name, type: 'KEY', tagCode: null })),
      },
      {
        line: 3,
        name: 'cave',
        custodianEmail: null,
        home: null,
        keys: [{ name: 'Grille', type: 'KEY', tagCode: null }],
      },
      { line: 7, name: 'Garage', custodianEmail: invited.email, home: null, keys: [] },
    ])
    expect(preview).toMatchObject({ delimiter: ',', rows: 6, keychains: 3, keys: 5, tags: 0, errorCount: 0 })
  })

  it('names a non-member custodian on each of its rows, but not on a row already refused for its name', async () => {
    const { organization } = await world()
    const preview = await previewImport(
      t.db,
      organization.id,
      csvOf(
        'A,ghost@example.com,,,',
        'B,ghost@example.com,,,',
        ',ghost@example.com,,,',
        ',other@example.com,,,',
      ),
    )
    expect(preview.errors.map(({ line, code }) => [line, code])).toEqual([
      [2, 'custodian_not_member'],
      [3, 'custodian_not_member'],
      [4, 'keychain_name_required'],
      [5, 'keychain_name_required'],
    ])
  })

  it('finds existing keychains named with quotes, backslashes, commas and braces, and only the organization’s', async () => {
    const { organization } = await world()
    const other = await organizationWithAdmin(t, 'Ailleurs')
    const odd = ['Cave "nord"', 'C:\\clés\\', 'a,b', '{x}', 'NULL']
    for (const name of odd) await makeKeychain(t, organization.id, name)
    await makeKeychain(t, other.organization.id, 'Theirs')
    const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`
    const preview = await previewImport(
      t.db,
      organization.id,
      csvOf(...[...odd, 'Theirs', 'cave "nord"'].map((name) => `${quoted(name)},,,,`)),
    )
    expect(preview.errors.map(({ code, value }) => [code, value])).toEqual(
      odd.map((name) => ['keychain_exists', name]),
    )
  })

  it('knows the organization’s tags only, free or on a key', async () => {
    const { organization, tags } = await world()
    const other = await organizationWithAdmin(t, 'Ailleurs')
    const [theirs] = await makeTags(t, other.organization.id, 1, 'OTR')
    const preview = await previewImport(
      t.db,
      organization.id,
      csvOf(`A,,One,TAG,${theirs!.code}`, `A,,Two,TAG,${tags[3]!.code}`),
    )
    expect(preview.errors.map(({ line, code }) => [line, code])).toEqual([[2, 'tag_unknown']])
  })

  it(`lists the first ${IMPORT_ERRORS_SHOWN} errors and counts them all; shows the first ${IMPORT_SAMPLE_SIZE} keychains`, async () => {
    const { organization } = await world()
    const rows = Array.from({ length: IMPORT_ERRORS_SHOWN + 1 }, (_, n) => `K${n},,Porte,CARD,`)
    const preview = await previewImport(t.db, organization.id, csvOf(...rows))
    expect(preview.errorCount).toBe(IMPORT_ERRORS_SHOWN + 1)
    expect(preview.errors).toHaveLength(IMPORT_ERRORS_SHOWN)
    expect(preview.errors.at(-1)!.line).toBe(IMPORT_ERRORS_SHOWN + 1)
    expect(preview.sample.map((keychain) => keychain.name)).toEqual(
      Array.from({ length: IMPORT_SAMPLE_SIZE }, (_, n) => `K${n}`),
    )
    expect(preview.keychains).toBe(IMPORT_ERRORS_SHOWN + 1)
    expect(preview.keys).toBe(0)
  })
})

describe('committing an import', () => {
  it('writes each keychain, its custodian’s entry, its keys and tags, and one ledger entry naming them', async () => {
    const { organization, admin, member, tags } = await world()
    const result = await commit(
      organization.id,
      admin.profile.id,
      csvOf(
        `Cave,${member.email},Porte,KEY,`,
        `Cave,,Badge,TAG,${tags[0]!.code}`,
        `Garage,,Portail,TAG,${tags[1]!.code}`,
        'Vide,,,,',
      ),
    )
    expect(result).toEqual({ keychains: 3, keys: 3, tags: 2 })
    const made = await t.db.select().from(keychains).where(eq(keychains.organizationId, organization.id))
    const byName = new Map(made.map((row) => [row.name, row]))
    expect(made.map((row) => [row.name, row.custodianId, row.createdAt, row.updatedAt]).sort()).toEqual(
      [
        ['Cave', member.id, t.clock.now(), t.clock.now()],
        ['Garage', null, t.clock.now(), t.clock.now()],
        ['Vide', null, t.clock.now(), t.clock.now()],
      ].sort(),
    )
    const cave = byName.get('Cave')!
    expect(await t.db.select().from(custodyLog).where(eq(custodyLog.keychainId, cave.id))).toEqual([
      expect.objectContaining({
        byUserId: admin.profile.id,
        fromUserId: null,
        toUserId: member.id,
        reason: '',
        at: t.clock.now(),
      }),
    ])
    for (const name of ['Garage', 'Vide'])
      expect(
        await t.db
          .select()
          .from(custodyLog)
          .where(eq(custodyLog.keychainId, byName.get(name)!.id)),
      ).toEqual([])
    const written = await t.db.select().from(keys)
    const ofKeychain = (id: string) =>
      written.filter((key) => key.keychainId === id).map((key) => [key.name, key.type, key.tagId])
    expect(ofKeychain(cave.id)).toEqual([
      ['Porte', 'KEY', null],
      ['Badge', 'TAG', tags[0]!.id],
    ])
    expect(ofKeychain(byName.get('Garage')!.id)).toEqual([['Portail', 'TAG', tags[1]!.id]])
    const [event] = await t.db
      .select()
      .from(organizationEvents)
      .where(eq(organizationEvents.organizationId, organization.id))
      .then((rows) => rows.filter((row) => row.kind === 'keychains.imported'))
    expect(event).toMatchObject({
      actorId: admin.profile.id,
      payload: { keychains: 3, keys: 3, tags: 2, custodians: 1 },
    })
    expect(new Set(event!.keychainIds)).toEqual(new Set(made.map((row) => row.id)))
    expect(event!.tagIds).toEqual([tags[0]!.id, tags[1]!.id])
  })

  it('refuses a file with row errors whole: its count, its first error, and at most 100 of them by line and column', async () => {
    const { organization, admin } = await world()
    const rows = ['A,,Porte,KEY,,more', ...Array.from({ length: 100 }, (_, n) => `K${n},,,CARD,`)]
    const error = await refusal(commit(organization.id, admin.profile.id, csvOf(...rows)))
    expect(error.status).toBe(400)
    expect(error.code).toBe('import_rows_invalid')
    expect(error.message).toBe(
      'The file has 201 row error(s); line 2: The row has more cells than the header has columns.',
    )
    expect(error.issues).toHaveLength(100)
    expect(error.issues!.slice(0, 3)).toEqual([
      { path: '2:', message: 'The row has more cells than the header has columns.' },
      { path: '3:key_name', message: 'The key name is required.' },
      { path: '3:key_type', message: 'The key type must be KEY or TAG.' },
    ])
    expect(await t.db.select().from(keychains).where(eq(keychains.organizationId, organization.id))).toEqual(
      [],
    )
  })

  it('writes more keychains and keys than one statement takes (1,000 rows each), every one once', async () => {
    const { organization, admin } = await world()
    const rows = Array.from({ length: 1001 }, (_, n) => `K${n},,Porte ${n},KEY,`)
    expect(await commit(organization.id, admin.profile.id, csvOf(...rows))).toEqual({
      keychains: 1001,
      keys: 1001,
      tags: 0,
    })
    const made = await t.db.select().from(keychains).where(eq(keychains.organizationId, organization.id))
    expect(new Set(made.map((row) => row.name)).size).toBe(1001)
    expect(made.every((row) => row.keyCount === 1)).toBe(true)
  })
})
