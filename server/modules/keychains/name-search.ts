import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { keychains } from '../../db/schema.ts'
import { likeContains } from '../../http/pagination.ts'

/**
 * A word of a search is common in an organization when at least this many of its keychain names begin with it
 * ("Logement" in "Logement 00777" when every name is "Logement …"): the trigram index's lists for its trigrams
 * hold most of the organization, and reading them grows with it.
 */
export const COMMON_WORD_NAMES = 500
/** Words shorter than a trigram give the trigram index nothing to look up. */
const SHORTEST_WORD = 3
const CACHE_MS = 5 * 60 * 1000
const CACHE_ENTRIES = 1000

/** Per organization and word: whether it is common, until when that answer is kept. Bounded, oldest out. */
const commonWords = new Map<string, { common: boolean; until: number }>()

function remember(key: string, common: boolean, now: number) {
  commonWords.delete(key)
  commonWords.set(key, { common, until: now + CACHE_MS })
  if (commonWords.size > CACHE_ENTRIES) commonWords.delete(commonWords.keys().next().value as string)
}

/**
 * Which of `words` begin at least COMMON_WORD_NAMES of the organization's names: for each, the name that many
 * places on from the word in the (organization, lower(name), id) index, read by a bounded walk of it. Names
 * beginning with the word follow it in that order, so the word is common when that name begins with it.
 */
async function probe(db: Db, organizationId: string, words: string[]): Promise<Set<string>> {
  const name = sql`lower(${keychains.name})`
  const result =
    (await db.execute(sql`select probe.word from jsonb_array_elements_text(${JSON.stringify(words)}::jsonb) as probe(word)
    where (select starts_with(${name}, probe.word) from ${keychains}
      where ${keychains.organizationId} = ${organizationId} and ${name} >= probe.word
      order by ${name}, ${keychains.id} offset ${COMMON_WORD_NAMES - 1} limit 1)`)) as unknown as {
      rows: { word: string }[]
    }
  return new Set(result.rows.map((row) => row.word))
}

/**
 * The condition of a keychain name search (`q`, any part of the name, any case). The whole pattern in the
 * trigram index reads the lists of every trigram in it, the common words' too; so the index is asked for the
 * other words only, and the whole pattern is checked on the few rows they find (`strpos`, which the index does
 * not serve). A search of common words only is not put to the trigram index at all; one without a common word
 * asks it for the whole pattern.
 */
export type NameSearch = {
  condition: SQL
  /** Whether the index is asked for the rare words only (the organization is then checked row by row). */
  rareWords: boolean
}

export async function nameSearch(
  db: Db,
  organizationId: string,
  q: string,
  now = Date.now(),
): Promise<NameSearch> {
  const text = q.toLowerCase()
  const whole = { condition: sql`lower(${keychains.name}) like ${likeContains(q)}`, rareWords: false }
  const words = [...new Set(text.split(/\s+/).filter((word) => word.length >= SHORTEST_WORD))]
  if (words.length === 0) return whole
  const unknown = words.filter((word) => (commonWords.get(`${organizationId} ${word}`)?.until ?? 0) <= now)
  if (unknown.length > 0) {
    const common = await probe(db, organizationId, unknown)
    for (const word of unknown) remember(`${organizationId} ${word}`, common.has(word), now)
  }
  const rare = words.filter((word) => !commonWords.get(`${organizationId} ${word}`)?.common)
  if (rare.length === words.length) return whole
  // Common words only: most names hold them, so the walk of the name index in order finds a page at once;
  // the trigram index would list the whole organization first.
  if (rare.length === 0)
    return { condition: sql`strpos(lower(${keychains.name}), ${text}) > 0`, rareWords: false }
  const pattern = `%${rare.map((word) => likeContains(word).slice(1, -1)).join('%')}%`
  return {
    condition: sql`lower(${keychains.name}) like ${pattern} and strpos(lower(${keychains.name}), ${text}) > 0`,
    rareWords: true,
  }
}
