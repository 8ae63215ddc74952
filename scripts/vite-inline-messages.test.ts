import { describe, expect, it } from 'vitest'
import { browserTranslations, messageIdsIn, withMessages } from './vite-inline-messages.ts'

const translations = {
  fr: { Faptqt: ['Administrateur'], 'KNBs-p': ['Confirmée'], other: ['Autre'] },
  en: { Faptqt: ['Administrator'], 'KNBs-p': ['Confirmed'], other: ['Other'] },
}
const REGISTRY = '/app/src/lib/i18n-messages.ts'

describe('the translations a browser module carries', () => {
  it('finds the catalog ids the compiled macros name, once each, whatever the quotes', () => {
    const code = `i18n._({ id: "Faptqt" }); jsx(Trans, { id: 'KNBs-p', values: {} }); const again = { id: \`Faptqt\` }`
    expect(messageIdsIn(code, translations.fr)).toEqual(['Faptqt', 'KNBs-p'])
  })

  it('leaves ids that are no message of the catalog, and near misses', () => {
    expect(
      messageIdsIn(`const row = { id: "row-1", userId: "Faptqt", id: Faptqt }`, translations.fr),
    ).toEqual([])
  })

  it('registers exactly its messages in every locale, on the first line, before its own code', () => {
    const code = `import { x } from './x.ts'\nexport const label = { id: "KNBs-p" }\n`
    const result = withMessages(code, translations, REGISTRY)
    const [first, ...rest] = result.split('\n')
    expect(rest.join('\n')).toBe(code.split('\n').slice(1).join('\n'))
    expect(first).toBe(
      `import { addMessages as __addMessages } from "${REGISTRY}";__addMessages({"fr":{"KNBs-p":["Confirmée"]},"en":{"KNBs-p":["Confirmed"]}});import { x } from './x.ts'`,
    )
  })

  it('leaves a module without messages as it is', () => {
    const code = `export const answer = 42\n`
    expect(withMessages(code, translations, REGISTRY)).toBe(code)
  })

  it("compiles the project's public and app catalogs in both languages, placeholders and plurals included", async () => {
    const all = await browserTranslations(['public', 'messages'])
    expect(Object.keys(all).sort()).toEqual(['en', 'fr'])
    const ids = Object.keys(all.fr!)
    expect(ids.length).toBeGreaterThan(500)
    expect(Object.keys(all.en!).sort()).toEqual([...ids].sort())
    // Compiled: a text with a placeholder is an array of its parts, not the source string.
    const withPlaceholder = ids.find((id) => (all.fr![id] as unknown[]).some((part) => Array.isArray(part)))
    expect(withPlaceholder).toBeDefined()
    // The server's catalog stays out.
    expect(Object.hasOwn(all.en!, 'mail.transfer.body')).toBe(false)
  })
})
