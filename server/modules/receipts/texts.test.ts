// The receipt's texts in the code and in the catalogs agree: English (the source language) says exactly what the
// code says, so `npm run i18n:extract` has been run since the last change; French has its own words for each.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parsePo } from '../../i18n/po.ts'
import { fromRoot } from '../../paths.ts'
import { receiptMailTexts } from './mail.ts'
import { receiptPdfTexts } from './pdf.ts'

const catalog = (locale: 'en' | 'fr') =>
  new Map(
    parsePo(readFileSync(fromRoot(`locales/${locale}/server.po`), 'utf8')).map(({ id, text }) => [id, text]),
  )

describe.each([
  ['the PDF', receiptPdfTexts],
  ['the mail', receiptMailTexts],
])('the texts of %s', (_, texts) => {
  it('are in the English catalog as the code writes them, and in the French one', () => {
    const [en, fr] = [catalog('en'), catalog('fr')]
    for (const { id, message } of Object.values(texts)) {
      expect(en.get(id), id).toBe(message)
      expect(fr.get(id), id).toMatch(/\S/)
    }
    expect(new Set(Object.values(texts).map(({ id }) => id)).size).toBe(Object.keys(texts).length)
  })
})
