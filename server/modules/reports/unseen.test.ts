import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { scans } from '../../db/schema.ts'
import { DAY } from '../../test/clock.ts'
import { makeKeychain, makeTags, organizationWithAdmin } from '../../test/fixtures.ts'
import { setupTestAppAtEpoch } from '../../test/harness.ts'
import { addTagKey, transferWorld } from '../../test/transfers.ts'
import { UNSEEN_CSV_COLUMNS } from './unseen.ts'

const t = setupTestAppAtEpoch()

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

type Unseen = { id: string; name: string; lastScanAt: string | null; tagCodes: string[] }

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
})
