import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LabelPrint } from '../../../contract/labels.ts'
import type { Tag } from '../../../contract/tags.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { ApiError } from '../../lib/api.ts'
import { TagListScreen } from './TagListScreen.tsx'

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

const tag = (n: number): Tag => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  publicId: `abcdefghijklmnopqrs${n}`,
  code: `AGC-0000${n}`,
  name: `Tag ${n}`,
  foregroundColor: '#000000',
  backgroundColor: '#ffffff',
  url: `http://localhost/tags/abcdefghijklmnopqrs${n}`,
  key: null,
  createdAt: '2026-01-01T00:00:00.000Z',
})

function listServer() {
  const urls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(String(url))
      return Response.json({ data: [tag(1), tag(2), tag(3)], nextCursor: null })
    }),
  )
  return urls
}

describe('reprinting tags from the tags list', () => {
  it('prints the chosen tags on the chosen label format, with or without their names', async () => {
    listServer()
    const printed: LabelPrint[] = []
    await renderWithRouter(
      <TagListScreen
        organizationId="o1"
        printLabels={async (print) => {
          printed.push(print)
        }}
      />,
    )
    const download = await screen.findByRole('button', { name: 'Download the PDF (0 tags)' })
    expect((download as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(screen.getByRole('checkbox', { name: 'Choose AGC-00001' }))
    fireEvent.click(screen.getByRole('checkbox', { name: 'Choose AGC-00003' }))
    fireEvent.change(screen.getByLabelText('Label format'), { target: { value: 'dymo-11352' } })
    fireEvent.click(screen.getByRole('checkbox', { name: 'Print the tag’s name' }))
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Download the PDF (2 tags)' }))
    })
    expect(printed).toEqual([
      {
        format: 'dymo-11352',
        selection: { by: 'ids', ids: [tag(1).id, tag(3).id] },
        withName: false,
      },
    ])
    expect(
      screen.getByRole('option', { name: 'Avery L7160, A4 sheets of 21 labels of 63.5 × 38.1 mm' }),
    ).toBeTruthy()
    expect(screen.getByRole('option', { name: 'Brother 62 mm roll, labels 62 × 29 mm' })).toBeTruthy()
  })

  it('prints every tag matching the search, and says so when more than 1,000 match', async () => {
    const urls = listServer()
    const printed: LabelPrint[] = []
    await renderWithRouter(
      <TagListScreen
        organizationId="o1"
        printLabels={async (print) => {
          printed.push(print)
          throw new ApiError(400, 'label_selection_too_large', 'More than 1000 tags match this filter.')
        }}
      />,
    )
    await screen.findByRole('checkbox', { name: 'Choose AGC-00001' })
    fireEvent.change(screen.getByLabelText('Search by code or name'), { target: { value: 'agc' } })
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(urls.at(-1)).toContain('q=agc'))
    fireEvent.click(
      await screen.findByRole('checkbox', { name: 'Choose every tag matching “agc” (at most 1000)' }),
    )
    expect((screen.getByRole('checkbox', { name: 'Choose AGC-00002' }) as HTMLInputElement).checked).toBe(
      true,
    )
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Download the PDF of all matching tags' }))
    })
    expect(printed[0]).toEqual({
      format: 'avery-l7160',
      selection: { by: 'filter', q: 'agc' },
      withName: true,
    })
    expect(screen.getByRole('alert').textContent).toBe(
      'More than 1000 tags match this search: narrow it, or print them in parts.',
    )
  })

  it.each([
    ['en', 'Download the PDF (1 tag)', 'Download the PDF (2 tags)'],
    ['fr', 'Télécharger le PDF (1 étiquette)', 'Télécharger le PDF (2 étiquettes)'],
  ] as const)('counts the chosen tags in %s, one and more', async (locale, one, two) => {
    await useLocale(locale)
    try {
      listServer()
      await renderWithRouter(<TagListScreen organizationId="o1" printLabels={async () => {}} />)
      const first = await screen.findByRole('checkbox', {
        name: locale === 'fr' ? 'Choisir AGC-00001' : 'Choose AGC-00001',
      })
      fireEvent.click(first)
      expect(screen.getByRole('button', { name: one })).toBeTruthy()
      fireEvent.click(
        screen.getByRole('checkbox', { name: locale === 'fr' ? 'Choisir AGC-00002' : 'Choose AGC-00002' }),
      )
      expect(screen.getByRole('button', { name: two })).toBeTruthy()
    } finally {
      await useLocale('en')
    }
  })
})
