import { describe, expect, it } from 'vitest'
import { parsePo } from '../server/i18n/po.ts'
import { missingTexts } from './check-catalogs.ts'

const po = `msgid ""
msgstr ""
"Language: fr\\n"

msgid "Sign in"
msgstr "Se connecter"

msgid "Missing one"
msgstr ""

msgid ""
"Long "
"message"
msgstr ""
"Long "
"texte"
`

describe('catalog check', () => {
  it('reads single- and multi-line entries, skipping the header', () => {
    expect(parsePo(po)).toEqual([
      { id: 'Sign in', text: 'Se connecter' },
      { id: 'Missing one', text: '' },
      { id: 'Long message', text: 'Long texte' },
    ])
  })

  it('names each message without a text', () => {
    expect(missingTexts('fr', parsePo(po))).toEqual(['fr: Missing one'])
  })
})
