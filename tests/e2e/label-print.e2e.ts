import { PDFDocument } from 'pdf-lib'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  LABEL_FORMAT_IDS,
  LABEL_FORMATS,
  type LabelFormatId,
  labelSlot,
  mmToPoints,
  QR_QUIET_MODULES,
} from '../../contract/label-layout.ts'
import { type Stack, startStack } from './harness.ts'
import { organizationOfNewAdmin } from './organizations.ts'

let stack: Stack
const ADMIN = 'ines.admin@labels.example.com'
/** CSS pixels per millimetre: 96 per inch. */
const PX_PER_MM = 96 / 25.4
const TAGS = 22

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

type Measured = {
  code: string
  page: number
  box: { x: number; y: number; width: number; height: number }
  qr: { value: string | null; x: number; y: number; width: number; height: number; viewBox: string | null }
  symbol: { x: number; y: number; width: number; height: number; dark: number }
  text: { x: number; y: number; width: number; height: number }
}

/** Every label of the print view as laid out by Chromium, in CSS pixels from its page's top left corner. */
function measure(page: Page): Promise<Measured[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.label-page')].flatMap((sheet, index) => {
      const origin = sheet.getBoundingClientRect()
      const from = (rect: DOMRect) => ({
        x: rect.left - origin.left,
        y: rect.top - origin.top,
        width: rect.width,
        height: rect.height,
      })
      return [...sheet.querySelectorAll<HTMLElement>('[data-label]')].map((label) => {
        const svg = label.querySelector('svg')!
        const symbol = svg.querySelector('path')!
        const text = label.querySelector('div')!
        return {
          code: label.dataset.label!,
          page: index,
          box: from(label.getBoundingClientRect()),
          qr: {
            ...from(svg.getBoundingClientRect()),
            value: svg.getAttribute('data-qr-value'),
            viewBox: svg.getAttribute('viewBox'),
          },
          // In the symbol's own units (modules), from its top left corner.
          symbol: {
            ...(({ x, y, width, height }) => ({ x, y, width, height }))(symbol.getBBox()),
            dark: (symbol.getAttribute('d') ?? '').split('M').length - 1,
          },
          text: from(text.getBoundingClientRect()),
        }
      })
    }),
  )
}

const overlap = (a: Measured['box'], b: Measured['box']) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

describe('the print view of a reprint', () => {
  it('lays out the chosen tags at the real size of each label format, QR codes in their quiet zone', async () => {
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Syndic des Lilas')
    const tags = await stack.createTags(organizationId, { alphaCode: 'LIL', count: TAGS, name: 'Cave' })
    const urlOf = new Map(tags.map((tag) => [tag.code, `${stack.baseUrl}/tags/${tag.publicId}`]))

    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN, 'en')
      await page.waitForURL((url) => url.pathname === '/en/app')
      await page.goto('/en/tags')
      await page.getByLabel('Choose every tag (at most 1000)').check()

      for (const id of LABEL_FORMAT_IDS satisfies readonly LabelFormatId[]) {
        const format = LABEL_FORMATS[id]
        const perPage = format.columns * format.rows
        const pages = Math.ceil(TAGS / perPage)
        await page.getByLabel('Label format').selectOption(id)
        await page.getByRole('button', { name: 'Open the print view' }).click()
        const view = page.getByRole('dialog', { name: 'Print view' })
        await view.waitFor()
        await view.getByText(`${TAGS} labels on ${pages} pages.`).waitFor()

        // Each page is the medium at its size: an A4 sheet, or one label of a roll.
        const sheets = await view.locator('.label-page').evaluateAll((all) =>
          all.map((sheet) => ({
            width: sheet.getBoundingClientRect().width,
            height: sheet.getBoundingClientRect().height,
            labels: sheet.querySelectorAll('[data-label]').length,
          })),
        )
        expect(sheets.length, id).toBe(pages)
        for (const [index, sheet] of sheets.entries()) {
          expect(sheet.width, id).toBeCloseTo(format.page.width * PX_PER_MM, 0)
          expect(sheet.height, id).toBeCloseTo(format.page.height * PX_PER_MM, 0)
          expect(sheet.labels, `${id} page ${index + 1}`).toBe(Math.min(perPage, TAGS - index * perPage))
        }

        const labels = await measure(page)
        expect(labels.map((label) => label.code)).toEqual([...urlOf.keys()].sort())
        for (const [index, label] of labels.entries()) {
          const slot = labelSlot(format, index)
          const where = `${id} ${label.code}`
          expect(label.page, where).toBe(slot.page)
          // Size and place in mm, as the maker's template has them (within half a CSS pixel).
          expect(Math.abs(label.box.width - format.label.width * PX_PER_MM), where).toBeLessThan(0.5)
          expect(Math.abs(label.box.height - format.label.height * PX_PER_MM), where).toBeLessThan(0.5)
          expect(Math.abs(label.box.x - slot.box.x * PX_PER_MM), where).toBeLessThan(0.5)
          expect(Math.abs(label.box.y - slot.box.y * PX_PER_MM), where).toBeLessThan(0.5)

          // The QR code of the tag's page, its symbol drawn 4 modules inside a blank zone that stays on the
          // label and that the text never enters.
          expect(label.qr.value, where).toBe(urlOf.get(label.code))
          expect(label.symbol.dark, where).toBeGreaterThan(20)
          const [minX, minY, side] = (label.qr.viewBox ?? '').split(' ').map(Number)
          expect([minX, minY], where).toEqual([-QR_QUIET_MODULES, -QR_QUIET_MODULES])
          const modules = side! - 2 * QR_QUIET_MODULES
          expect(label.symbol.x, where).toBeGreaterThanOrEqual(0)
          expect(label.symbol.y, where).toBeGreaterThanOrEqual(0)
          expect(label.symbol.x + label.symbol.width, where).toBeLessThanOrEqual(modules)
          expect(label.symbol.y + label.symbol.height, where).toBeLessThanOrEqual(modules)
          const modulePx = label.qr.width / side!
          expect(modulePx * QR_QUIET_MODULES, where).toBeGreaterThan(1)
          expect(label.qr.x, where).toBeGreaterThanOrEqual(label.box.x - 0.01)
          expect(label.qr.y, where).toBeGreaterThanOrEqual(label.box.y - 0.01)
          expect(label.qr.x + label.qr.width, where).toBeLessThanOrEqual(label.box.x + label.box.width + 0.01)
          expect(label.qr.y + label.qr.height, where).toBeLessThanOrEqual(
            label.box.y + label.box.height + 0.01,
          )
          expect(overlap(label.qr, label.text), where).toBe(false)
          // No two labels touch one another's area.
          const next = labels[index + 1]
          if (next && next.page === label.page) expect(overlap(label.box, next.box), where).toBe(false)
        }

        // Printed, the pages are the medium's size (`@page`) and each sheet starts a new one.
        const pdf = await PDFDocument.load(await page.pdf({ preferCSSPageSize: true, printBackground: true }))
        expect(pdf.getPageCount(), id).toBe(pages)
        for (const printed of pdf.getPages()) {
          expect(printed.getWidth(), id).toBeCloseTo(mmToPoints(format.page.width), 0)
          expect(printed.getHeight(), id).toBeCloseTo(mmToPoints(format.page.height), 0)
        }

        await view.getByRole('button', { name: 'Close the print view' }).click()
        await view.waitFor({ state: 'detached' })
      }
    })
  })
})
