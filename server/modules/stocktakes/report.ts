import { eq } from 'drizzle-orm'
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib'
import type { Locale } from '../../../contract/locale.ts'
import type { Person } from '../../../contract/person.ts'
import type { HookRef } from '../../../contract/whereabouts.ts'
import type { Db } from '../../db/client.ts'
import { organizations } from '../../db/schema.ts'
import { type MessageDescriptor, translator } from '../../i18n/translator.ts'
import { displayName } from '../../shared/person.ts'
import { hookRefs } from '../../shared/places.ts'
import { csvText } from '../reports/csv.ts'
import { stocktakeTexts as m } from './texts.ts'
import { stocktakeDetail, stocktakeScanRows } from './view.ts'

const INTL: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' }

type Line = {
  section: keyof typeof m
  keychain: string
  tags: string
  expected: string
  found: string
  when: string
  who: string
  value: string
}

/** The report's lines in the reader's language: every expected keychain, the unexpected scans, the late ones. */
async function reportOf(db: Db, organizationId: string, id: string, locale: Locale) {
  const detail = await stocktakeDetail(db, organizationId, id)
  const [organization] = await db
    .select({ name: organizations.name, timeZone: organizations.timeZone })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  const timeZone = organization?.timeZone ?? 'Europe/Paris'
  const i18n = translator(locale)
  const t = (descriptor: MessageDescriptor, values: Record<string, unknown> = {}) =>
    i18n._({ ...descriptor, values })
  const instant = (at: string | null) =>
    at
      ? new Intl.DateTimeFormat(INTL[locale], { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
          new Date(at),
        )
      : ''
  const hook = (ref: HookRef | null) => (ref ? `${ref.code} (${ref.placeName})` : '')
  const person = (who: Person | null) => (who ? displayName(who) : '')
  const late = await stocktakeScanRows(db, id, 'late')
  const lateHooks = await hookRefs(
    db,
    organizationId,
    late.flatMap(({ scan }) => (scan.hookId ? [scan.hookId] : [])),
  )
  const lines: Line[] = [
    ...detail.items.map((item) => ({
      section: item.state,
      keychain: item.keychain.name,
      tags: item.keychain.tagCodes.join(' '),
      expected: item.expectedHook ? hook(item.expectedHook) : t(m.noHook),
      found: hook(item.foundHook),
      when: instant(item.foundAt),
      who: person(item.foundBy),
      value: '',
    })),
    ...detail.unexpected.map((scan) => ({
      section: scan.keychain ? ('UNEXPECTED' as const) : ('UNKNOWN' as const),
      keychain: scan.keychain?.name ?? '',
      tags: scan.keychain?.tagCodes.join(' ') ?? '',
      expected: '',
      found: hook(scan.hook),
      when: instant(scan.scannedAt),
      who: person(scan.scannedBy),
      value: scan.value,
    })),
    ...late.map(({ scan, keychain, scanner }) => ({
      section: 'LATE' as const,
      keychain: keychain?.name ?? '',
      tags: keychain?.tagCodes?.join(' ') ?? '',
      expected: '',
      found: hook(scan.hookId ? (lateHooks.get(scan.hookId) ?? null) : null),
      when: instant(scan.receivedAt.toISOString()),
      who: scanner?.id
        ? displayName({
            email: scanner.email ?? '',
            firstName: scanner.firstName ?? '',
            lastName: scanner.lastName ?? '',
          })
        : '',
      value: scan.value,
    })),
  ]
  const scope = detail.scope?.name ?? t(m.wholeOrganization)
  const status =
    detail.status === 'CLOSED'
      ? t(m.reportStatusClosed, {
          started: instant(detail.startedAt),
          closed: instant(detail.closedAt),
          person: detail.closedBy ? displayName(detail.closedBy) : t(m.nobody),
        })
      : t(m.reportStatusOpen, { date: instant(detail.startedAt) })
  return {
    t,
    title: t(m.reportTitle, { scope }),
    organization: organization?.name ?? '',
    status,
    counts: t(m.reportCounts, detail.counts),
    lines,
    closedAt: detail.closedAt ?? detail.startedAt,
  }
}

/** `GET /stocktakes/{id}/report/csv`: one record per expected keychain, unexpected scan and late scan. */
export async function stocktakeReportCsv(
  db: Db,
  organizationId: string,
  id: string,
  locale: Locale,
): Promise<string> {
  const report = await reportOf(db, organizationId, id, locale)
  const { t } = report
  const columns = [
    t(m.columnSection),
    t(m.columnKeychain),
    t(m.columnTags),
    t(m.columnExpected),
    t(m.columnFound),
    t(m.columnWhen),
    t(m.columnWho),
    t(m.columnValue),
  ]
  return csvText(
    report.lines.map((line) => [
      t(m[line.section]),
      line.keychain,
      line.tags,
      line.expected,
      line.found,
      line.when,
      line.who,
      line.value,
    ]),
    columns,
  )
}

/** The standard fonts write WinAnsi only: other characters lose their accents, or become a question mark. */
function writable(font: PDFFont, text: string): string {
  let out = ''
  for (const char of text.replace(/\s+/g, ' ')) {
    const candidates = [char, char.normalize('NFD').replace(/\p{M}/gu, ''), '?']
    out += candidates.find((each) => {
      try {
        font.encodeText(each)
        return true
      } catch {
        return false
      }
    })
  }
  return out
}

const A4 = { width: 595.28, height: 841.89 }
const MARGIN = 40

/**
 * `GET /stocktakes/{id}/report/pdf`: an A4 report (pdf-lib, standard fonts): title, status, tally, then one
 * line per keychain or scan grouped by result (missing first), in the reader's language.
 */
export async function stocktakeReportPdf(
  db: Db,
  organizationId: string,
  id: string,
  locale: Locale,
): Promise<Uint8Array> {
  const report = await reportOf(db, organizationId, id, locale)
  const { t } = report
  const pdf = await PDFDocument.create()
  pdf.setTitle(report.title)
  pdf.setLanguage(locale)
  pdf.setCreator('Trousseau')
  pdf.setProducer('Trousseau')
  const at = new Date(report.closedAt)
  pdf.setCreationDate(at)
  pdf.setModificationDate(at)
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  let page: PDFPage = pdf.addPage([A4.width, A4.height])
  let y = A4.height - MARGIN
  const write = (value: string, size: number, font: PDFFont, x = MARGIN) => {
    if (y - size * 1.4 < MARGIN) {
      page = pdf.addPage([A4.width, A4.height])
      y = A4.height - MARGIN
    }
    let text = writable(font, value)
    const room = A4.width - MARGIN - x
    while (text.length > 1 && font.widthOfTextAtSize(text, size) > room) text = `${text.slice(0, -2)}…`
    page.drawText(text, { x, y: y - size, size, font, color: rgb(0.1, 0.12, 0.16) })
    y -= size * 1.4
  }
  write(report.title, 18, bold)
  write(report.organization, 11, regular)
  write(report.status, 10, regular)
  write(report.counts, 10, bold)
  y -= 8
  const order: Array<Line['section']> = [
    'MISSING',
    'PENDING',
    'MISPLACED',
    'UNEXPECTED',
    'UNKNOWN',
    'FOUND',
    'LATE',
  ]
  for (const section of order) {
    const lines = report.lines.filter((line) => line.section === section)
    if (lines.length === 0) continue
    y -= 6
    write(`${t(m[section])} (${lines.length})`, 12, bold)
    for (const line of lines) {
      const name = line.keychain || line.value
      const where = [
        line.expected && `${t(m.columnExpected)}: ${line.expected}`,
        line.found && `${t(m.columnFound)}: ${line.found}`,
        line.who && `${line.who}, ${line.when}`,
      ].filter(Boolean)
      write(
        `${name}${line.tags ? ` [${line.tags}]` : ''}${where.length ? ` — ${where.join(' · ')}` : ''}`,
        9,
        regular,
        MARGIN + 8,
      )
    }
  }
  return pdf.save()
}
