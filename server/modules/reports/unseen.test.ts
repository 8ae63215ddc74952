import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DAY } from '../../../tests/server/clock.ts'
import { makeKeychain, makeTags, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { addTagKey, transferWorld } from '../../../tests/server/transfers.ts'
import { scans, users } from '../../db/schema.ts'
import { encodeCursor } from '../../http/pagination.ts'
import { UNSEEN_CSV_COLUMNS } from './unseen.ts'

const t = setupTestAppAtEpoch()

// The export's batch size, made small in one test so a few keychains span several batches.
const batch = vi.hoisted(() => ({ size: 0 }))
vi.mock('./csv.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./csv.ts')>()
  return {
    ...real,
    get REPORT_BATCH() {
      return batch.size || real.REPORT_BATCH
    },
  }
})
afterEach(() => {
  batch.size = 0
})

/**
 * At the test epoch (15 January 2030, 10:00 in Paris): "Cave" (the world's) never scanned; "Atelier" scanned by a
 * member 40 days ago; "Bureau" 10 days ago; "Cour" 40 days ago and again today through its second tag; "Grenier"
 * scanned only by a stranger (a `foreign` scan) yesterday; "Vide" has no tag.
 */
async function scannedWorld() {
  const world = await transferWorld(t, { name: 'Vus' })
  const { organization, member, admin } = world
  const tags = await makeTags(t, organization.id, 5, 'VUS')
  const keychain = async (name: string, tagIds: string[]) => {
    const made = await makeKeychain(t, organization.id, name, admin.id)
    for (const tagId of tagIds) await addTagKey(t, made.id, tagId)
    return made
  }
  const scan = (tagId: string, daysAgo: number, result: 'resolved' | 'foreign' = 'resolved') =>
    t.db.insert(scans).values({
      userId: member.id,
      organizationId: organization.id,
      value: 'x',
      result,
      tagId,
      serverTime: new Date(t.clock.now().getTime() - daysAgo * DAY),
    })
  const [a, b, c1, c2, g] = tags.map((tag) => tag.id) as [string, string, string, string, string]
  const atelier = await keychain('Atelier', [a])
  const bureau = await keychain('Bureau', [b])
  const cour = await keychain('Cour', [c1, c2])
  const grenier = await keychain('Grenier', [g])
  const vide = await keychain('Vide', [])
  await scan(a, 40)
  await scan(b, 10)
  await scan(c1, 40)
  await scan(c2, 0)
  await scan(g, 1, 'foreign')
  return {
    ...world,
    tags,
    atelier,
    bureau,
    cour,
    grenier,
    vide,
    at: (daysAgo: number) => new Date(t.clock.now().getTime() - daysAgo * DAY).toISOString(),
  }
}

type Unseen = {
  id: string
  name: string
  lastScanAt: string | null
  tagCodes: string[]
  custodian: { id: string } | null
}

async function everyPage(cookie: string, query = ''): Promise<Unseen[]> {
  const items: Unseen[] = []
  let cursor: string | null = null
  do {
    const response = await t.get(`/api/reports/unseen?limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`, {
      cookie,
    })
    expect(response.status).toBe(200)
    const page: { data: Unseen[]; nextCursor: string | null } = await response.json()
    items.push(...page.data)
    cursor = page.nextCursor
  } while (cursor)
  return items
}

const byId = (ids: string[]) => [...ids].sort()

describe('keychains not seen for N days', () => {
  it('lists the keychains none of whose tags a member scanned in the last N days, never scanned first, then the longest unseen', async () => {
    const world = await scannedWorld()
    const { admin, keychain, tag } = world
    const thirty = await everyPage(admin.cookie)
    const never = byId([keychain.id, world.grenier.id, world.vide.id])
    expect(thirty.slice(0, 3).map((item) => item.id)).toEqual(never)
    expect(thirty.slice(3)).toEqual([
      {
        id: world.atelier.id,
        name: 'Atelier',
        custodian: { id: admin.id, email: admin.email, firstName: '', lastName: '' },
        tagCodes: [world.tags[0]!.code],
        lastScanAt: world.at(40),
      },
    ])
    const cave = thirty.find((item) => item.id === keychain.id)
    expect(cave).toMatchObject({ name: 'Cave', tagCodes: [tag.code], lastScanAt: null })
    expect(thirty.find((item) => item.id === world.vide.id)?.tagCodes).toEqual([])
    const week = await everyPage(admin.cookie, '&days=7')
    expect(week.map((item) => item.id)).toEqual([...never, world.atelier.id, world.bureau.id])
    expect(week.at(-1)?.lastScanAt).toBe(world.at(10))
  })

  it("counts N days of the organization's calendar, today included", async () => {
    const { admin, bureau } = await scannedWorld()
    // Scanned on 5 January at 10:00 in Paris: the 11th day counting today back, so unseen for 10 days, not 11.
    const listed = async (days: number) =>
      (await everyPage(admin.cookie, `&days=${days}`)).some((item) => item.id === bureau.id)
    expect(await listed(10)).toBe(true)
    expect(await listed(11)).toBe(false)
  })

  it('narrows to what one person holds; 404 for a person of another organization; 400 for a bad number of days', async () => {
    const { admin, member, keychain } = await scannedWorld()
    expect((await everyPage(admin.cookie, `&person=${member.id}`)).map((item) => item.id)).toEqual([
      keychain.id,
    ])
    const stranger = await organizationWithAdmin(t, 'Ailleurs')
    for (const path of ['/api/reports/unseen', '/api/reports/unseen/export'])
      expect((await t.get(`${path}?person=${stranger.admin.id}`, { cookie: admin.cookie })).status).toBe(404)
    for (const [query, message] of [
      ['days=0', 'days must be at least 1.'],
      ['days=3651', 'days must be at most 3650.'],
      ['days=ten', 'days must be a whole number.'],
      ['days=-1', 'days must be a whole number.'],
      ['person=x', 'Malformed id.'],
    ]) {
      const response = await t.get(`/api/reports/unseen?${query}`, { cookie: admin.cookie })
      expect(response.status, query).toBe(400)
      expect(JSON.stringify(await response.json()), query).toContain(message)
    }
  })

  it('exports the view as CSV, and nothing of another organization', async () => {
    const world = await scannedWorld()
    await scannedWorld()
    const response = await t.get('/api/reports/unseen/export?days=7', { cookie: world.admin.cookie })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="keychains-not-seen.csv"')
    const text = await response.text()
    expect(text.split('\r\n')[0]).toBe(UNSEEN_CSV_COLUMNS.join(','))
    const records = parse(text, { columns: true }) as Array<Record<string, string>>
    expect(records.map((record) => record.keychain_name)).toEqual(
      [...(await everyPage(world.admin.cookie, '&days=7'))].map((item) => item.name),
    )
    expect(records.at(-1)).toEqual({
      keychain_id: world.bureau.id,
      keychain_name: 'Bureau',
      custodian_email: world.admin.email,
      custodian_name: '',
      tag_codes: world.tags[1]!.code,
      last_scan_at: world.at(10),
    })
    expect(records.find((record) => record.keychain_name === 'Vide')?.tag_codes).toBe('')
  })

  it('exports in batches, each going on after the last keychain of the one before, never scanned or not', async () => {
    const world = await scannedWorld()
    const { admin } = world
    await t.db.update(users).set({ firstName: 'Ada' }).where(eq(users.id, admin.id))
    await t.db.update(users).set({ lastName: 'Dupont' }).where(eq(users.id, world.member.id))
    const custodians = { [admin.id]: [admin.email, 'Ada'], [world.member.id]: [world.member.email, 'Dupont'] }
    // "Double": two tags never scanned, no one holds it.
    const [first, second] = await makeTags(t, world.organization.id, 2, 'DBL')
    const double = await makeKeychain(t, world.organization.id, 'Double')
    await addTagKey(t, double.id, second!.id)
    await addTagKey(t, double.id, first!.id)
    const listed = await everyPage(admin.cookie, '&days=7')
    expect(listed).toHaveLength(6)
    const expected = listed.map((item) => ({
      keychain_id: item.id,
      keychain_name: item.name,
      custodian_email: item.custodian ? custodians[item.custodian.id]![0] : '',
      custodian_name: item.custodian ? custodians[item.custodian.id]![1] : '',
      tag_codes: item.tagCodes.join(' '),
      last_scan_at: item.lastScanAt ?? '',
    }))
    expect(expected.find((record) => record.keychain_id === double.id)).toMatchObject({
      custodian_email: '',
      custodian_name: '',
      tag_codes: [first!.code, second!.code].sort().join(' '),
    })
    expect(expected.find((record) => record.keychain_id === world.keychain.id)?.custodian_name).toBe('Dupont')
    // Four never scanned, then Atelier and Bureau. Batches of 2 go on after a never scanned keychain (twice)
    // and end full on a scanned one; of 4, from the last never scanned to the first scanned; of 5, after a
    // scanned one; of 6, all in one full batch, then an empty one.
    for (const size of [2, 4, 5, 6]) {
      batch.size = size
      const text = await (await t.get('/api/reports/unseen/export?days=7', { cookie: admin.cookie })).text()
      expect(
        text.split('\r\n').filter((line) => line.startsWith('keychain_id')),
        `${size}`,
      ).toHaveLength(1)
      expect(parse(text, { columns: true }), `${size}`).toEqual(expected)
    }
    // The person filter holds in the export.
    const held = parse(
      await (
        await t.get(`/api/reports/unseen/export?person=${world.member.id}`, { cookie: admin.cookie })
      ).text(),
      { columns: true },
    ) as Array<Record<string, string>>
    expect(held.map((record) => record.keychain_id)).toEqual([world.keychain.id])
  })

  it('answers 400 for a cursor whose id is not exactly an id', async () => {
    const { admin } = await transferWorld(t, { name: 'Curseurs' })
    const id = '0b7c4a5e-1f2d-4c3b-8a9e-6d5f4e3c2b1a'
    for (const key of [
      ['2030-01-01T00:00:00.000Z', 'not-an-id'],
      ['2030-01-01T00:00:00.000Z', `x${id}`],
      ['2030-01-01T00:00:00.000Z', `${id}0`],
      ['2030-01-01T00:00:00.000Z', id.replaceAll('-', '')],
    ]) {
      const response = await t.get(`/api/reports/unseen?cursor=${encodeCursor(key)}`, {
        cookie: admin.cookie,
      })
      expect(response.status, key[1]).toBe(400)
      expect((await response.json()).error.message, key[1]).toBe('Malformed cursor.')
    }
    // An id in capitals is one.
    const upper = await t.get(
      `/api/reports/unseen?cursor=${encodeCursor(['2030-01-01T00:00:00.000Z', id.toUpperCase()])}`,
      {
        cookie: admin.cookie,
      },
    )
    expect(upper.status).toBe(200)
  })
})
