import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { IMPORT_ROW_ERRORS, type ImportRowError } from '../../../contract/keychain-import.ts'
import { hookLabelUrl } from '../../../contract/places.ts'
import {
  addMember,
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp, TEST_PUBLIC_URL } from '../../../tests/server/harness.ts'
import { makeBoard } from '../../../tests/server/places.ts'
import { custodyLog, keychains, organizationEvents } from '../../db/schema.ts'
import { IMPORT_MAX_BODY_BYTES } from '../../http/request-guards.ts'
import { createTags } from '../tags/service.ts'

const t = setupTestApp()

async function world() {
  const { organization, admin } = await organizationWithAdmin(t)
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const tags = await makeTags(t, organization.id, 4)
  return { organization, admin, manager, member, tags }
}

const TAG_LINE = { name: 'Test', foregroundColor: '#111111', backgroundColor: '#ffee00' }
const HEADER = 'keychain_name,custodian_email,key_name,key_type,tag_code,home'
const csvOf = (...rows: string[]) => [HEADER, ...rows].join('\r\n')

const preview = (cookie: string, csv: string) =>
  t.post('/api/keychain-imports/previews', { cookie, json: { csv } })
const commit = (cookie: string, csv: string, key: string = randomUUID()) =>
  t.post('/api/keychain-imports', { cookie, json: { csv }, headers: { 'idempotency-key': key } })
const exported = async (cookie: string) => {
  const response = await t.get('/api/keychain-export', { cookie })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer())
}
const keychainCount = async (organizationId: string) =>
  (await t.db.select().from(keychains).where(eq(keychains.organizationId, organizationId))).length

describe('POST /api/keychain-imports/previews', () => {
  it('reads a French Excel file (BOM, `;`, CRLF, French headers) and writes nothing', async () => {
    const { organization, manager, member, tags } = await world()
    const csv =
      '\uFEFFNom du trousseau;E-mail du détenteur;Clé;Type;Code du tag\r\n' +
      `Cave;${member.email.toUpperCase()};Porte;clé;\r\n` +
      `Cave;;Badge;TAG;${tags[0]!.code.toLowerCase()}\r\n` +
      ';;;;\r\n' +
      '"Bureau; 2e étage";;"Clé ""bleue""";;\r\n' +
      'Vide;;;;\r\n'
    const response = await preview(manager.cookie, csv)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      delimiter: ';',
      rows: 4,
      keychains: 3,
      keys: 3,
      tags: 1,
      errorCount: 0,
      errors: [],
      sample: [
        {
          line: 2,
          name: 'Cave',
          custodianEmail: member.email,
          home: null,
          keys: [
            { name: 'Porte', type: 'KEY', tagCode: null },
            { name: 'Badge', type: 'TAG', tagCode: tags[0]!.code },
          ],
        },
        {
          line: 5,
          name: 'Bureau; 2e étage',
          custodianEmail: null,
          home: null,
          keys: [{ name: 'Clé "bleue"', type: 'KEY', tagCode: null }],
        },
        { line: 6, name: 'Vide', custodianEmail: null, home: null, keys: [] },
      ],
    })
    expect(await keychainCount(organization.id)).toBe(0)
  })

  it('reports every kind of row error with its line, column and code', async () => {
    const { organization, manager, tags } = await world()
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const [theirTag] = await makeTags(t, foreign.organization.id, 1, 'FOR')
    const disabled = await signedInMember(t, organization.id, 'MEMBER', { status: 'DISABLED' })
    const other = await signedInMember(t, organization.id, 'MEMBER')
    const existing = await makeKeychain(t, organization.id, 'Déjà là')
    await makeBoard(t, organization.id, { name: 'Board' })
    await makeBoard(t, organization.id, { name: 'Twin' })
    await makeBoard(t, organization.id, { name: 'twin' })
    await makeBoard(t, foreign.organization.id, { name: 'Theirs' })
    await t.post(`/api/keychains/${existing.id}/keys`, {
      cookie: manager.cookie,
      json: { type: 'TAG', name: 'Pris', tagId: tags[1]!.id },
    })
    const csv = csvOf(
      ',,Porte,KEY,', // 2 keychain_name_required
      `${'x'.repeat(121)},,Porte,KEY,`, // 3 keychain_name_too_long
      'Déjà là,,Porte,KEY,', // 4 keychain_exists
      'A,not-an-address,Porte,KEY,', // 5 custodian_invalid
      `B,${disabled.email},Porte,KEY,`, // 6 custodian_not_member
      `C,${other.email},Porte,KEY,`, // 7
      `C,${manager.email},Fenêtre,KEY,`, // 8 custodian_conflict
      'D,,,KEY,', // 9 key_name_required
      `D,,${'k'.repeat(121)},KEY,`, // 10 key_name_too_long
      'D,,Porte,CARD,', // 11 key_type_invalid
      'D,,Badge,TAG,', // 12 tag_code_required
      `D,,Porte,KEY,${tags[2]!.code}`, // 13 tag_code_not_allowed
      `D,,Badge,TAG,${theirTag!.code}`, // 14 tag_unknown (another organization's)
      `D,,Badge,TAG,${tags[1]!.code}`, // 15 tag_taken
      `D,,Badge,TAG,${tags[3]!.code}`, // 16
      `E,,Badge,,${tags[3]!.code}`, // 17 tag_repeated
      '"Tab\tname",,Porte,KEY,', // 18 text_invalid
      'F,,Porte,KEY,,,surplus', // 19 column_count
      'G,,Porte,KEY,,Nowhere / A-01', // 20 home_unknown
      'G2,,Porte,KEY,,Theirs / A-01', // 21 home_unknown (another organization's)
      'H,,Porte,KEY,,board / a-01', // 22
      'H,,Volet,KEY,,Board / A-02', // 23 home_conflict
      'I,,Porte,KEY,,Twin / A-01', // 24 home_ambiguous
    )
    const response = await preview(manager.cookie, csv)
    expect(response.status).toBe(200)
    const body = await response.json()
    const found = body.errors.map((error: ImportRowError) => [error.line, error.column, error.code])
    expect(found).toEqual([
      [2, 'keychain_name', 'keychain_name_required'],
      [3, 'keychain_name', 'keychain_name_too_long'],
      [4, 'keychain_name', 'keychain_exists'],
      [5, 'custodian_email', 'custodian_invalid'],
      [6, 'custodian_email', 'custodian_not_member'],
      [8, 'custodian_email', 'custodian_conflict'],
      [9, 'key_name', 'key_name_required'],
      [10, 'key_name', 'key_name_too_long'],
      [11, 'key_type', 'key_type_invalid'],
      [12, 'tag_code', 'tag_code_required'],
      [13, 'tag_code', 'tag_code_not_allowed'],
      [14, 'tag_code', 'tag_unknown'],
      [15, 'tag_code', 'tag_taken'],
      [17, 'tag_code', 'tag_repeated'],
      [18, 'keychain_name', 'text_invalid'],
      [19, null, 'column_count'],
      [20, 'home', 'home_unknown'],
      [21, 'home', 'home_unknown'],
      [23, 'home', 'home_conflict'],
      [24, 'home', 'home_ambiguous'],
    ])
    expect(new Set(found.map((error: unknown[]) => error[2]))).toEqual(new Set(IMPORT_ROW_ERRORS))
    expect(body.errorCount).toBe(20)
    expect(body.errors[2]).toEqual({
      line: 4,
      column: 'keychain_name',
      code: 'keychain_exists',
      message: 'A keychain of this name already exists in the organization.',
      value: 'Déjà là',
    })
    expect(await keychainCount(organization.id)).toBe(1)
  })

  it('refuses a file it cannot read as a whole with 400 csv_invalid, and an oversized body with 413', async () => {
    const { manager } = await world()
    // Each says why (`reason`, for the UI to word it) and where (`column`, `line`), with an English message.
    const cases: Array<[string, RegExp, object]> = [
      ['', /empty/, { reason: 'empty' }],
      [HEADER, /no rows/, { reason: 'no_rows' }],
      [
        'keychain_name, colour \r\nA,red',
        /Unknown column "colour": the columns are keychain_name, custodian_email/,
        { reason: 'unknown_column', column: 'colour' },
      ],
      ['key_name\r\nA', /must name the column keychain_name/, { reason: 'name_column_missing' }],
      [
        'keychain_name, Trousseau \r\nA,B',
        /The column keychain_name appears twice/,
        { reason: 'repeated_column', column: 'Trousseau' },
      ],
      [`${HEADER}\r\nA,,"Porte,KEY,`, /not valid CSV \(line 2\)/, { reason: 'not_csv', line: 2 }],
      [
        csvOf(...Array.from({ length: 20_001 }, (_, index) => `K${index},,,,`)),
        /more than 20000 rows/,
        { reason: 'too_many_rows' },
      ],
    ]
    for (const [csv, message, why] of cases) {
      const response = await preview(manager.cookie, csv)
      expect(response.status, csv.slice(0, 40)).toBe(400)
      const { error } = await response.json()
      expect(error.code).toBe('csv_invalid')
      expect(error.message).toMatch(message)
      expect(error, csv.slice(0, 40)).toMatchObject(why)
      if (!('column' in why)) expect(error.column).toBeUndefined()
      if (!('line' in why)) expect(error.line).toBeUndefined()
    }
    const noBody = await t.post('/api/keychain-imports/previews', { cookie: manager.cookie, json: {} })
    expect((await noBody.json()).error).toMatchObject({
      code: 'validation_failed',
      message: 'The file is required.',
    })
    const huge = await preview(manager.cookie, `${HEADER}\r\n${'a'.repeat(IMPORT_MAX_BODY_BYTES)}`)
    expect(huge.status).toBe(413)
    expect((await huge.json()).error.code).toBe('payload_too_large')
  })

  it('is for those who create keychains: a MEMBER gets 403, nobody signed in 401', async () => {
    const { member } = await world()
    expect((await preview(member.cookie, csvOf('A,,,,'))).status).toBe(403)
    expect((await commit(member.cookie, csvOf('A,,,,'))).status).toBe(403)
    expect((await preview('', csvOf('A,,,,'))).status).toBe(401)
  })
})

describe('POST /api/keychain-imports', () => {
  it('creates the keychains, custody entries and keys in one go, with one ledger entry', async () => {
    const { organization, admin, manager, member, tags } = await world()
    const csv = csvOf(
      `Cave,${member.email},Porte,KEY,`,
      `Cave,${member.email},Badge,TAG,${tags[0]!.code}`,
      `Garage,,Portail,,${tags[1]!.code}`,
      'Vide,,,,',
    )
    const response = await commit(manager.cookie, csv)
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ keychains: 3, keys: 3, tags: 2 })
    const list = await (await t.get('/api/keychains', { cookie: admin.cookie })).json()
    expect(
      list.data.map(
        (row: { name: string; keyCount: number; tagCodes: string[]; custodian: { id: string } | null }) => [
          row.name,
          row.keyCount,
          row.tagCodes,
          row.custodian?.id ?? null,
        ],
      ),
    ).toEqual([
      ['Cave', 2, [tags[0]!.code], member.id],
      ['Garage', 1, [tags[1]!.code], null],
      ['Vide', 0, [], null],
    ])
    const cave = list.data[0]
    const detail = await (await t.get(`/api/keychains/${cave.id}`, { cookie: admin.cookie })).json()
    expect(detail.keys.map((key: { name: string }) => key.name)).toEqual(['Porte', 'Badge'])
    const custody = await t.db.select().from(custodyLog).where(eq(custodyLog.keychainId, cave.id))
    expect(custody).toMatchObject([{ byUserId: manager.id, fromUserId: null, toUserId: member.id }])
    const events = await t.db
      .select()
      .from(organizationEvents)
      .where(eq(organizationEvents.organizationId, organization.id))
    const imported = events.filter((event) => event.kind === 'keychains.imported')
    expect(imported).toHaveLength(1)
    expect(imported[0]).toMatchObject({
      actorId: manager.id,
      payload: { keychains: 3, keys: 3, tags: 2, custodians: 1 },
    })
    expect(imported[0]!.keychainIds).toHaveLength(3)
    expect(new Set(imported[0]!.tagIds)).toEqual(new Set([tags[0]!.id, tags[1]!.id]))
    const activity = await (
      await t.get('/api/activity?kind=keychains.imported', { cookie: admin.cookie })
    ).json()
    expect(activity.data).toHaveLength(1)
    const chain = await (await t.get('/api/activity/verification', { cookie: admin.cookie })).json()
    expect(chain).toMatchObject({ valid: true, brokenAt: null })
  })

  it('writes nothing when a row is wrong (400 import_rows_invalid with the rows), even one gone wrong since the preview', async () => {
    const { organization, manager, tags } = await world()
    const bad = await commit(manager.cookie, csvOf('A,,Porte,KEY,', 'B,,Badge,TAG,NOPE-1', 'C,,,CARD,'))
    expect(bad.status).toBe(400)
    expect((await bad.json()).error).toEqual({
      code: 'import_rows_invalid',
      message: 'The file has 3 row error(s); line 3: No tag of the organization has this code.',
      issues: [
        { path: '3:tag_code', message: 'No tag of the organization has this code.' },
        { path: '4:key_name', message: 'The key name is required.' },
        { path: '4:key_type', message: 'The key type must be KEY or TAG.' },
      ],
    })
    expect(await keychainCount(organization.id)).toBe(0)
    // Checked again at commit: a tag put on a key since the preview refuses the whole file.
    const rows = Array.from({ length: 2500 }, (_, index) => `K${index},,Porte,KEY,`)
    rows.push(`Last,,Badge,TAG,${tags[0]!.code}`)
    const csv = csvOf(...rows)
    expect((await (await preview(manager.cookie, csv)).json()).errorCount).toBe(0)
    const other = await makeKeychain(t, organization.id, 'Other')
    await t.post(`/api/keychains/${other.id}/keys`, {
      cookie: manager.cookie,
      json: { type: 'TAG', name: 'Taken', tagId: tags[0]!.id },
    })
    const late = await commit(manager.cookie, csv)
    expect(late.status).toBe(400)
    expect((await late.json()).error.issues).toEqual([
      { path: '2502:tag_code', message: 'This tag is already on a key.' },
    ])
    expect(await keychainCount(organization.id)).toBe(1)
  })

  it('two imports racing for one tag: one is imported whole, the other not at all', async () => {
    const { organization, manager, admin, tags } = await world()
    // The tag is on the last row: on PostgreSQL the loser has inserted its 2,500 keychains (three statements)
    // when the tag's unique index makes it wait for the winner, then fail (409), or it checks after the winner
    // committed (400). PGlite runs one transaction at a time: the loser checks after the winner (400).
    const fileOf = (prefix: string) =>
      csvOf(
        ...Array.from({ length: 2500 }, (_, index) => `${prefix}${index},,Porte,KEY,`),
        `${prefix},,Badge,TAG,${tags[1]!.code}`,
      )
    const answers = await Promise.all([
      commit(manager.cookie, fileOf('M')),
      commit(admin.cookie, fileOf('A')),
    ])
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses[0]).toBe(201)
    expect([400, 409]).toContain(statuses[1])
    expect(await keychainCount(organization.id)).toBe(2501)
  })

  it('imports once per Idempotency-Key: a double submit replays the answer; the key for another file is a 422', async () => {
    const { organization, manager } = await world()
    const key = randomUUID()
    const csv = csvOf('A,,Porte,KEY,', 'B,,,,')
    const [first, second] = await Promise.all([
      commit(manager.cookie, csv, key),
      commit(manager.cookie, csv, key),
    ])
    expect([first.status, second.status]).toEqual([201, 201])
    expect(await first.json()).toEqual(await second.json())
    const replayed = [first, second].filter(
      (response) => response.headers.get('idempotent-replayed') === 'true',
    )
    expect(replayed).toHaveLength(1)
    expect(await keychainCount(organization.id)).toBe(2)
    const again = await commit(manager.cookie, csv, key)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    const reused = await commit(manager.cookie, csvOf('Z,,,,'), key)
    expect(reused.status).toBe(422)
    expect(await keychainCount(organization.id)).toBe(2)
    // A new key for the same file: its keychains exist now, so nothing is imported twice either.
    const twice = await commit(manager.cookie, csv)
    expect(twice.status).toBe(400)
    expect((await twice.json()).error.issues[0]).toEqual({
      path: '2:keychain_name',
      message: 'A keychain of this name already exists in the organization.',
    })
    const missing = await t.post('/api/keychain-imports', { cookie: manager.cookie, json: { csv } })
    expect(missing.status).toBe(400)
    expect((await missing.json()).error.message).toBe('The Idempotency-Key header is required.')
  })

  it("only sees the selected organization: another one's tags are unknown, its members not members", async () => {
    const { organization, manager } = await world()
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const [theirTag] = await makeTags(t, foreign.organization.id, 1, 'FRN')
    const response = await commit(
      manager.cookie,
      csvOf(`A,${foreign.admin.email},Badge,TAG,${theirTag!.code}`),
    )
    expect(response.status).toBe(400)
    expect((await response.json()).error.issues.map((issue: { path: string }) => issue.path)).toEqual([
      '2:custodian_email',
      '2:tag_code',
    ])
    expect(await keychainCount(organization.id)).toBe(0)
    expect(await keychainCount(foreign.organization.id)).toBe(0)
  })
})

describe('GET /api/keychain-export', () => {
  it('round-trips: export, import into a new organization, export again gives the same file', async () => {
    const { organization, admin, manager, member, tags } = await world()
    const { hooks } = await makeBoard(t, organization.id, { name: 'Tableau A' })
    // Two boards named "Double": a home there is written as the hook's id.
    await makeBoard(t, organization.id, { name: 'Double', count: 1 })
    const double = await makeBoard(t, organization.id, { name: 'Double', count: 1 })
    const csv = csvOf(
      `Cave,${member.email},Porte,KEY,,Tableau A / A-02`,
      `Cave,${member.email},Badge,TAG,${tags[0]!.code},`,
      '"Bureau, 2e",,"Clé ""bleue""",KEY,',
      '=1+1,,-1 parking,KEY,',
      `Vide,,,,,${hookLabelUrl(TEST_PUBLIC_URL, double.hooks[0]!.publicId)}`,
      `cave basse,,Soupirail,TAG,${tags[1]!.code}`,
    )
    expect((await commit(manager.cookie, csv)).status).toBe(201)
    const first = await exported(admin.cookie)
    expect(first.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true)
    expect(first).toContain("'=1+1,,'-1 parking,KEY,,\r\n") // never a formula in a spreadsheet
    expect(first).toContain(`Cave,${member.email},Porte,KEY,,Tableau A / A-02\r\n`)
    expect(first).toContain(`Cave,${member.email},Badge,TAG,${tags[0]!.code},Tableau A / A-02\r\n`)
    expect(first).toContain(`Vide,,,,,${double.hooks[0]!.publicId}\r\n`)
    const [cave] = await t.db
      .select()
      .from(keychains)
      .where(and(eq(keychains.organizationId, organization.id), eq(keychains.name, 'Cave')))
    expect(cave!.homeHookId).toBe(hooks[1]!.id)

    // A new organization with tags of the same codes (codes are unique per organization only), and the member.
    const fresh = await organizationWithAdmin(t, 'Fresh')
    await createTags(
      t.db,
      fresh.organization.id,
      { ...TAG_LINE, alphaCode: tags[0]!.alphaCode, startNumber: tags[0]!.number, count: tags.length },
      t.clock.now(),
    )
    await addMember(t, {
      userId: member.id,
      organizationId: fresh.organization.id,
      role: 'MEMBER',
      select: false,
    })
    // Its own board of that name; the twin boards' hook is the first organization's, so leave that home out.
    await makeBoard(t, fresh.organization.id, { name: 'Tableau A' })
    const imported = await commit(fresh.admin.cookie, first.replace(double.hooks[0]!.publicId, ''))
    expect(imported.status).toBe(201)
    expect(await imported.json()).toEqual({ keychains: 5, keys: 5, tags: 2 })
    expect(await exported(fresh.admin.cookie)).toBe(first.replace(double.hooks[0]!.publicId, ''))
  })

  it('streams a large organization in batches, keys in order, and is readable by a MEMBER only of its organization', async () => {
    const { organization, manager, member } = await world()
    const rows = Array.from(
      { length: 1203 },
      (_, index) => `K${String(index).padStart(5, '0')},,Porte ${index},KEY,,`,
    )
    rows.push('K00000,,Second,KEY,,')
    expect((await commit(manager.cookie, csvOf(...rows))).status).toBe(201)
    const text = await exported(member.cookie)
    const lines = text.split('\r\n')
    expect(lines).toHaveLength(1 + 1204 + 1)
    expect(lines.slice(1, 3)).toEqual(['K00000,,Porte 0,KEY,,', 'K00000,,Second,KEY,,'])
    expect(lines.at(-2)).toBe('K01202,,Porte 1202,KEY,,')
    const foreign = await organizationWithAdmin(t, 'Elsewhere')
    expect(await exported(foreign.admin.cookie)).toBe(`\uFEFF${HEADER}\r\n`)
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    expect((await t.get('/api/keychain-export', { cookie: contact.cookie })).status).toBe(403)
  })
})
