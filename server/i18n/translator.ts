import { readFileSync } from 'node:fs'
import { type I18n, type MessageDescriptor, setupI18n } from '@lingui/core'
import { compileMessage } from '@lingui/message-utils/compileMessage'
import { LOCALES, type Locale } from '../../contract/locale.ts'
import { fromRoot } from '../paths.ts'
import { parsePo } from './po.ts'

const catalogPath = (locale: Locale) => fromRoot(`locales/${locale}/server.po`)

function loadCatalog(locale: Locale) {
  return Object.fromEntries(
    parsePo(readFileSync(catalogPath(locale), 'utf8')).map(({ id, text }) => [id, compileMessage(text)]),
  )
}

let translators: Record<Locale, I18n> | undefined

/**
 * The server's texts (mail) go through Lingui like the browser's: descriptors with explicit ids marked
 * `/*i18n*\/` in the code, extracted to `locales/{fr,en}/server.po`, read once at first use.
 */
export function translator(locale: Locale): I18n {
  translators ??= Object.fromEntries(
    LOCALES.map((each) => [each, setupI18n({ locale: each, messages: { [each]: loadCatalog(each) } })]),
  ) as Record<Locale, I18n>
  return translators[locale]
}

export type { MessageDescriptor }
