import { act, fireEvent, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FoundReportStatus, FoundReportSummary } from '../../../contract/found-reports.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { FoundReportListScreen } from './FoundReportListScreen.tsx'

/** A finder's report; noon UTC, the same day in every time zone the tests may run in. */
const report = (id: string, extra: Partial<FoundReportSummary> = {}): FoundReportSummary => ({
  id,
  status: 'NEW',
  message: 'Trouvé devant la boulangerie, rue des Rosiers.',
  tag: { id: `tag-${id}`, code: 'MRS-00042', name: 'Loge' },
  keychain: { id: '33333333-3333-4333-8333-333333333333', name: 'Loge du 8' },
  locale: 'fr',
  canReply: true,
  replies: 0,
  createdAt: '2030-01-10T12:00:00.000Z',
  updatedAt: '2030-01-10T12:00:00.000Z',
  ...extra,
})

const REPORTS = [
  report('r1'),
  report('r2', {
    status: 'CONTACTED',
    tag: { id: 'tag-r2', code: 'MRS-00007', name: 'Cave' },
    keychain: null,
    message: 'Found on the bus.',
    createdAt: '2030-01-08T12:00:00.000Z',
  }),
  report('r3', { status: 'RESOLVED', tag: { id: 'tag-r3', code: 'MRS-00099', name: 'Atelier' } }),
]

afterEach(() => {
  vi.unstubAllGlobals()
})

/** The server: the reports of the status asked for (all without one). */
function server(reports: FoundReportSummary[] = REPORTS) {
  const urls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(String(input), 'http://app.test')
      urls.push(`${url.pathname}${url.search}`)
      const status = url.searchParams.get('status')
      return Response.json({
        data: reports.filter((each) => !status || each.status === status),
        nextCursor: null,
      })
    }),
  )
  return urls
}

/** The screen with its status kept as the route keeps it (in the URL). */
function List({
  onStatus = () => undefined,
}: {
  onStatus?: (status: FoundReportStatus | undefined) => void
}) {
  const [status, setStatus] = useState<FoundReportStatus | undefined>()
  return (
    <FoundReportListScreen
      organizationId="o1"
      status={status}
      onStatusChange={(next) => {
        onStatus(next)
        setStatus(next)
      }}
    />
  )
}

const items = () =>
  within(screen.getByRole('list', { name: /Found keys|Clés trouvées/ }))
    .getAllByRole('listitem')
    .map((item) => ({
      link: within(item).getByRole('link').textContent,
      href: within(item).getByRole('link').getAttribute('href'),
      text: item.textContent,
    }))

describe('the found-key reports list', () => {
  it('lists each report with its tag, date, status, message and keychain, in English', async () => {
    await useLocale('en')
    const urls = server()
    await renderWithRouter(<List />)
    await screen.findByRole('list', { name: 'Found keys' })
    const [first, second, third] = items()
    expect(first!.link).toMatch(/^Tag MRS-00042, 10 Jan 2030, \d\d:\d\d$/)
    expect(first!.href).toBe('/en/app/found-reports/r1')
    expect(first!.text).toContain('New')
    expect(first!.text).toContain('Trouvé devant la boulangerie')
    expect(first!.text).toContain('Keychain: Loge du 8')
    expect(second!.text).toContain('Contacted')
    expect(second!.text).toContain('The tag is on no keychain.')
    expect(third!.text).toContain('Resolved')
    expect(urls).toEqual(['/api/found-reports'])
  })

  it('shows the statuses and dates in French', async () => {
    await useLocale('fr')
    server()
    await renderWithRouter(<List />)
    await screen.findByRole('list', { name: 'Clés trouvées' })
    const [first, second, third] = items()
    expect(first!.link).toMatch(/^Étiquette MRS-00042, 10 janv\. 2030, \d\d:\d\d$/)
    expect(first!.href).toBe('/app/found-reports/r1')
    expect(first!.text).toContain('Nouveau')
    expect(first!.text).toContain('Trousseau : Loge du 8')
    expect(second!.text).toContain('Contacté')
    expect(second!.text).toContain('L’étiquette n’est sur aucun trousseau.')
    expect(third!.text).toContain('Résolu')
  })

  it('asks for one status when one is chosen, and for all again', async () => {
    await useLocale('en')
    const chosen = vi.fn()
    const urls = server()
    await renderWithRouter(<List onStatus={chosen} />)
    await screen.findByRole('list', { name: 'Found keys' })
    const picker = screen.getByRole('combobox', { name: 'Status' })
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All', 'New', 'Contacted', 'Resolved'])
    await act(async () => {
      fireEvent.change(picker, { target: { value: 'CONTACTED' } })
    })
    expect(chosen).toHaveBeenLastCalledWith('CONTACTED')
    await vi.waitFor(() => expect(items()).toHaveLength(1))
    expect(items()[0]!.text).toContain('Found on the bus.')
    expect(urls.at(-1)).toBe('/api/found-reports?status=CONTACTED')
    await act(async () => {
      fireEvent.change(picker, { target: { value: '' } })
    })
    expect(chosen).toHaveBeenLastCalledWith(undefined)
    await vi.waitFor(() => expect(items()).toHaveLength(3))
    expect(urls.at(-1)).toBe('/api/found-reports')
  })

  it('says when there is no report, in both languages', async () => {
    await useLocale('en')
    server([])
    const { unmount } = await renderWithRouter(<List />)
    expect(await screen.findByText('No report here.')).toBeTruthy()
    unmount()
    await useLocale('fr')
    await renderWithRouter(<List />)
    expect(await screen.findByText('Aucun signalement ici.')).toBeTruthy()
  })

  it('says the reports could not be loaded, and loads them on retry', async () => {
    await useLocale('fr')
    let calls = 0
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        calls += 1
        return calls === 1
          ? Response.json({ error: { code: 'forbidden', message: 'No.' } }, { status: 403 })
          : Response.json({ data: REPORTS, nextCursor: null })
      }),
    )
    await renderWithRouter(<List />)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Les signalements n’ont pas pu être chargés.')
    await act(async () => {
      fireEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }))
    })
    await screen.findByRole('list', { name: 'Clés trouvées' })
    expect(items()).toHaveLength(3)
  })

  it('shows the not-found page, not a retry, for an organization that is not (or no longer) one’s own', async () => {
    await useLocale('en')
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ error: { code: 'not_found', message: 'Not found.' } }, { status: 404 }),
      ),
    )
    await renderWithRouter(<List />)
    await screen.findByText('Page Not Found')
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
  })
})
