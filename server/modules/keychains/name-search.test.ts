// A keychain name search whose words include one most names begin with ("Logement" in "Logement 00777")
// asks the trigram index for the other words only, and checks the whole text on what they find: the same
// keychains as a plain `like '%…%'`, read at a cost that does not grow with the common word's names.
import { sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { createOrganization, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { statementsOf } from '../../../tests/server/statement-count.ts'
import { keychainPageQuery } from './list.ts'
import { COMMON_WORD_NAMES, nameSearch } from './name-search.ts'

const t = setupTestApp()
let organizationId: string
let cookie: string

async function insertNames(organization: string, names: string[]) {
  const now = t.clock.now()
  await t.db.execute(sql`
    insert into keychains (organization_id, name, custodian_id, created_at, updated_at)
    select ${organization}::uuid, name, null, ${now}, ${now}
    from jsonb_array_elements_text(${JSON.stringify(names)}::jsonb) as names(name)`)
}

const numbered = (word: string, count: number) =>
  Array.from({ length: count }, (_, n) => `${word} ${String(n + 1).padStart(5, '0')}`)

beforeAll(async () => {
  const { organization, admin } = await organizationWithAdmin(t, 'Recherche')
  organizationId = organization.id
  cookie = admin.cookie
  await insertNames(organizationId, [
    ...numbered('Logement', COMMON_WORD_NAMES + 300),
    'Appartement logement 00777',
    'LOGEMENT 00777 bis',
    'Cave 00777',
    'Logement  00777',
    'Logement 50% 00777',
    'Bureau Dupont',
  ])
  // Another organization where "logement" is rare: its searches keep the whole pattern.
  const other = await createOrganization(t, 'Voisin')
  await insertNames(other.id, ['Logement 00777', 'Cave 00777'])
}, 60_000)

const search = async (q: string) => {
  const response = await t.get(`/api/keychains?limit=100&q=${encodeURIComponent(q)}`, { cookie })
  expect(response.status).toBe(200)
  return ((await response.json()).data as { name: string }[]).map((keychain) => keychain.name)
}

async function plan(q: string): Promise<string> {
  const named = await nameSearch(t.db, organizationId, q)
  const query = keychainPageQuery(t.db, organizationId, { q }, 25, {
    named,
    arms: { keychainIds: [], holderIds: [] },
  })
  const result = (await t.db.execute(sql`explain ${query}`)) as unknown as { rows: Record<string, string>[] }
  return result.rows.map((row) => Object.values(row)[0]).join('\n')
}

describe('a keychain name search with a word most names begin with', () => {
  it('finds exactly the names holding the whole text, in any case, in name order', async () => {
    expect(await search('Logement 00777')).toEqual([
      'Appartement logement 00777',
      'Logement 00777',
      'LOGEMENT 00777 bis',
    ])
    expect(await search('ement 00777 B')).toEqual(['LOGEMENT 00777 bis'])
    // The words in another order, or apart, are another text.
    expect(await search('00777 logement')).toEqual([])
    expect(await search('logement  00777')).toEqual(['Logement  00777'])
    // `%` and `_` are letters of the text, not wildcards.
    expect(await search('logement 50% 00777')).toEqual(['Logement 50% 00777'])
    expect(await search('logement 5_% 00777')).toEqual([])
    expect(await search('logement 00600')).toEqual(['Logement 00600'])
  })

  it('asks the trigram index for the rare words only; common words only, or one word, keep the whole text', async () => {
    const rare = await plan('Logement 00777')
    expect(rare).toMatch(
      /Bitmap Index Scan on keychains_name_trgm_idx[^\n]*\n[^\n]*Index Cond: \(lower\(name\) ~~ '%00777%'/,
    )
    expect(rare).not.toMatch(/keychains_organization_/)
    expect(rare).not.toMatch(/%logement 00777%/)
    expect(rare).toMatch(/strpos/)
    // Common words only: the name index walked in order, the text checked on each name until a page is full.
    for (const common of ['logement', 'LOGEMENT logement']) {
      const walk = await plan(common)
      expect(walk).not.toMatch(/keychains_name_trgm_idx|~~/)
      expect(walk).toMatch(/strpos/)
    }
    expect(await search('ogement 0079')).toHaveLength(10)
    expect(await search('LOGEMENT')).toHaveLength(100)
    const other = (await t.db.execute(
      sql`select id from organizations where name = 'Voisin'`,
    )) as unknown as {
      rows: { id: string }[]
    }
    const elsewhere = await nameSearch(t.db, other.rows[0]!.id, 'Logement 00777')
    expect(elsewhere.rareWords).toBe(false)
    const text = new PgDialect().sqlToQuery(elsewhere.condition)
    expect(text.params).toEqual(['%logement 00777%'])
  })

  it('looks up whether a word is common once, then remembers it', async () => {
    await search('Logement 00042') // "00042" is new: one look-up
    const { statements } = await statementsOf(() => search('Logement 00043'))
    expect(statements.filter((statement) => statement.includes('starts_with'))).toHaveLength(1)
    const again = await statementsOf(() => search('Logement 00043'))
    expect(again.statements.filter((statement) => statement.includes('starts_with'))).toEqual([])
    expect(await search('Logement 00043')).toEqual(['Logement 00043'])
  })
})
