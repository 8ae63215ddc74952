import { createCompiledCatalog, getCatalogs } from '@lingui/cli/api'
import { getConfig } from '@lingui/conf'
import type { Plugin } from 'vite'

// Each browser module carries the translations of the messages it uses, in both languages, and adds them to
// the catalog when it is evaluated (`src/lib/i18n-messages.ts`). A page then holds the texts of the code it
// runs: about 3 KiB gzipped on an /app page, where the one French catalog every page loaded was 12 KiB, and no
// request for a catalog waits on the page's code. A message can never be missing for the code that shows it,
// whatever chunk the bundler puts that code in. The dev server and the tests load the whole catalogs.

export type Translations = Record<string, Record<string, unknown>>

/** The message ids a module's code names once the Lingui macros have run (`{ id: "Faptqt" }`, `id="…"`). */
export function messageIdsIn(code: string, known: Record<string, unknown>): string[] {
  const ids = new Set<string>()
  for (const match of code.matchAll(/\bid\s*[:=]\s*(["'`])([\w-]+)\1/g))
    if (Object.hasOwn(known, match[2]!)) ids.add(match[2]!)
  return [...ids].sort()
}

/**
 * The module's code preceded, on its first line (line numbers stay), by the registration of the
 * translations of the messages it uses; the code as it is when it uses none.
 */
export function withMessages(code: string, translations: Translations, registry: string): string {
  const locales = Object.keys(translations)
  const ids = messageIdsIn(code, translations[locales[0]!] ?? {})
  if (ids.length === 0) return code
  const part = Object.fromEntries(
    locales.map((locale) => [locale, Object.fromEntries(ids.map((id) => [id, translations[locale]![id]]))]),
  )
  return `import { addMessages as __addMessages } from ${JSON.stringify(registry)};__addMessages(${JSON.stringify(part)});${code}`
}

/** Every locale's compiled translations of the browser's catalogs (not the server's). */
export async function browserTranslations(catalogNames: string[]): Promise<Translations> {
  const config = getConfig()
  const catalogs = (await getCatalogs(config)).filter((catalog) =>
    catalogNames.some((name) => catalog.path.endsWith(`/${name}`)),
  )
  const translations: Translations = {}
  for (const locale of config.locales) {
    translations[locale] = {}
    for (const catalog of catalogs) {
      const { messages } = await catalog.getTranslations(locale, {
        fallbackLocales: config.fallbackLocales,
        sourceLocale: config.sourceLocale,
      })
      const { source, errors } = createCompiledCatalog(locale, messages, { namespace: 'json' })
      if (errors.length > 0)
        throw new Error(`${locale}: ${errors.map((error) => `${error.id}: ${error.error}`).join('; ')}`)
      Object.assign(translations[locale]!, JSON.parse(source).messages)
    }
  }
  return translations
}

/** The browser build's modules with their own translations (`src/lib/i18n-messages.ts` collects them). */
export function inlineMessages({ registry }: { registry: string }): Plugin {
  let translations: Translations
  return {
    name: 'trousseau-inline-messages',
    apply: 'build',
    enforce: 'post',
    async buildStart() {
      translations = await browserTranslations(['public', 'messages'])
    },
    transform(code, id) {
      const file = id.split('?')[0] ?? id
      if (!/[\\/]src[\\/].*\.tsx?$/.test(file) || file.includes('node_modules') || file === registry)
        return null
      const result = withMessages(code, translations, registry)
      return result === code ? null : { code: result, map: null }
    },
  }
}
