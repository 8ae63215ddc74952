// Fails when a message of a catalog lacks its text: every msgid needs a French and an English msgstr.
import { readFileSync } from 'node:fs'
import { LOCALES } from '../contract/locale.ts'
import { type CatalogEntry, parsePo } from '../server/i18n/po.ts'

export function missingTexts(locale: string, entries: CatalogEntry[]): string[] {
  return entries.filter((entry) => entry.text.trim() === '').map((entry) => `${locale}: ${entry.id}`)
}

/** The browser's catalogs (public pages, then the rest of the app) and the server's (mail). */
export const CATALOGS = ['public', 'messages', 'server'] as const

if (import.meta.main) {
  const problems = LOCALES.flatMap((locale) =>
    CATALOGS.flatMap((catalog) =>
      missingTexts(`${locale}/${catalog}`, parsePo(readFileSync(`locales/${locale}/${catalog}.po`, 'utf8'))),
    ),
  )
  if (problems.length > 0) {
    console.error(`Messages without a text (${problems.length}):\n${problems.join('\n')}`)
    process.exit(1)
  }
  console.log(`Catalogs complete: ${LOCALES.join(', ')}`)
}
