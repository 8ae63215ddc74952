import { PDFDocument } from 'pdf-lib'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { describe, expect, it } from 'vitest'
import { LABEL_FORMAT_IDS, LABEL_FORMATS, pageCount } from '../../../contract/label-layout.ts'
import type { LabelSheet } from '../../../contract/labels.ts'
import { hookLabelUrl, parseLocationLabel, placeLabelUrl } from '../../../contract/places.ts'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp, TEST_PUBLIC_URL } from '../../../tests/server/harness.ts'
import { makeBoard, makePlace } from '../../../tests/server/places.ts'

const t = setupTestApp()

/** The text of every page, read by pdf.js (an independent reader), one string per page. */
async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const document = await getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 }).promise
  const texts: string[] = []
  for (let n = 1; n <= document.numPages; n += 1) {
    const content = await (await document.getPage(n)).getTextContent()
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '))
  }
  await document.destroy()
  return texts
}

describe('POST /places/:id/labels', () => {
  it('gives the board’s own label first, then each hook’s in order: code, board name, the QR’s URL', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const room = await makePlace(t, organization.id, { name: 'Accueil', kind: 'ROOM' })
    const { board, hooks } = await makeBoard(t, organization.id, {
      name: 'Tableau A',
      parentId: room.id,
      depth: 1,
    })
    const response = await t.post(`/api/places/${board.id}/labels`, {
      cookie: admin.cookie,
      json: { format: 'dymo-11352' },
    })
    expect(response.status).toBe(200)
    const sheet = (await response.json()) as LabelSheet
    expect(sheet.format).toBe('dymo-11352')
    expect(sheet.labels[0]).toEqual({
      id: board.id,
      code: 'Tableau A',
      name: 'Accueil',
      url: placeLabelUrl(TEST_PUBLIC_URL, board.publicId!),
      foregroundColor: '#000000',
      backgroundColor: '#ffffff',
    })
    expect(sheet.labels.slice(1).map((label) => [label.code, label.name])).toEqual([
      ['A-01', 'Tableau A'],
      ['A-02', 'Tableau A'],
      ['A-03', 'Tableau A'],
    ])
    expect(sheet.labels[1]!.url).toBe(hookLabelUrl(TEST_PUBLIC_URL, hooks[0]!.publicId))
    expect(parseLocationLabel(sheet.labels[1]!.url)).toEqual({ kind: 'hook', publicId: hooks[0]!.publicId })
  })

  it('prints only the chosen hooks, without the board’s label when asked', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board, hooks } = await makeBoard(t, organization.id, { count: 5 })
    const response = await t.post(`/api/places/${board.id}/labels`, {
      cookie: admin.cookie,
      json: { format: 'a4-sheet', hookIds: [hooks[3]!.id, hooks[1]!.id], withPlace: false },
    })
    const sheet = (await response.json()) as LabelSheet
    expect(sheet.labels.map((label) => label.code)).toEqual(['A-02', 'A-04'])
  })

  it('refuses a room (409), nothing to print (400), another board’s hook or organization (404)', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const room = await makePlace(t, organization.id, { kind: 'ROOM' })
    const post = (id: string, json: unknown) =>
      t.post(`/api/places/${id}/labels`, { cookie: admin.cookie, json })
    expect((await post(room.id, { format: 'a4-sheet' })).status).toBe(409)
    const empty = await makeBoard(t, organization.id, { count: 0 })
    const nothing = await post(empty.board.id, { format: 'a4-sheet', withPlace: false })
    expect(nothing.status).toBe(400)
    expect(((await nothing.json()) as { error: { code: string } }).error.code).toBe('label_selection_empty')
    expect((await post(empty.board.id, { format: 'a4-sheet' })).status).toBe(200)
    const other = await makeBoard(t, organization.id, { count: 1 })
    expect((await post(empty.board.id, { format: 'a4-sheet', hookIds: [other.hooks[0]!.id] })).status).toBe(
      404,
    )
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const theirs = await makeBoard(t, foreign.organization.id)
    expect((await post(theirs.board.id, { format: 'a4-sheet' })).status).toBe(404)
    expect((await post(empty.board.id, { format: 'letter' })).status).toBe(400)
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    const refused = await t.post(`/api/places/${empty.board.id}/labels`, {
      cookie: contact.cookie,
      json: { format: 'a4-sheet' },
    })
    expect(refused.status).toBe(403)
  })
})

describe('POST /places/:id/labels/pdf', () => {
  for (const format of LABEL_FORMAT_IDS) {
    it(`prints a 60-hook board and its own label on ${format}: every code legible, the expected pages`, async () => {
      const { organization, admin } = await organizationWithAdmin(t)
      const { board } = await makeBoard(t, organization.id, { name: 'Tableau du sous-sol', count: 60 })
      const response = await t.post(`/api/places/${board.id}/labels/pdf`, {
        cookie: admin.cookie,
        json: { format },
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/pdf')
      const bytes = new Uint8Array(await response.arrayBuffer())
      const spec = LABEL_FORMATS[format]
      const pdf = await PDFDocument.load(bytes)
      expect(pdf.getPageCount()).toBe(pageCount(spec, 61))
      for (const page of pdf.getPages()) {
        expect(page.getWidth()).toBeCloseTo((spec.page.width * 72) / 25.4, 1)
        expect(page.getHeight()).toBeCloseTo((spec.page.height * 72) / 25.4, 1)
      }
      const text = (await pageTexts(bytes)).join(' ')
      // Each hook's code whole (never cut with …), and the board's name on its own label.
      for (let number = 1; number <= 60; number += 1)
        expect(text).toContain(`A-${String(number).padStart(2, '0')}`)
      expect(text).not.toMatch(/A-\d?…/)
      expect(text).toContain('Tableau')
    })
  }
})
