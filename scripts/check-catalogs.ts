// Fails when a message of a catalog lacks its text: every msgid needs a French and an English msgstr.
import { readFileSync } from 'node:fs'
import { LOCALES } from '../contract/locale.ts'

export type CatalogEntry = { id: string; text: string }

/** Reads the msgid/msgstr pairs of a .po file (single- and multi-line strings). */
export function parsePo(source: string): CatalogEntry[] {
  const entries: CatalogEntry[] = []
  let field: 'id' | 'text' | null = null
  let current: CatalogEntry = { id: '', text: '' }
  const flush = () => {
    if (current.id !== '') entries.push(current)
    current = { id: '', text: '' }
  }
  for (const line of source.split('\n')) {
    if (line.startsWith('msgid ')) {
      flush()
      field = 'id'
      current.id = JSON.parse(line.slice(6))
    } else if (line.startsWith('msgstr ')) {
      field = 'text'
      current.text = JSON.parse(line.slice(7))
    } else if (line.startsWith('"') && field) {
      current[field] += JSON.parse(line)
    } else {
      field = null
    }
  }
  flush()
  return entries
}

export function missingTexts(locale: string, entries: CatalogEntry[]): string[] {
  return entries.filter((entry) => entry.text.trim() === '').map((entry) => `${locale}: ${entry.id}`)
}

if (import.meta.main) {
  const problems = LOCALES.flatMap((locale) =>
    missingTexts(locale, parsePo(readFileSync(`locales/${locale}/messages.po`, 'utf8'))),
  )
  if (problems.length > 0) {
    console.error(`Messages without a text (${problems.length}):\n${problems.join('\n')}`)
    process.exit(1)
  }
  console.log(`Catalogs complete: ${LOCALES.join(', ')}`)
}
