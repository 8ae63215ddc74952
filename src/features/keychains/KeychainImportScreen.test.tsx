import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ImportPreview } from '../../../contract/keychain-import.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { AbilityProvider } from '../../lib/ability.tsx'
import { KeychainImportScreen } from './KeychainImportScreen.tsx'

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

const preview = (overrides: Partial<ImportPreview> = {}): ImportPreview => ({
  delimiter: ';',
  rows: 3,
  keychains: 2,
  keys: 2,
  tags: 1,
  errorCount: 0,
  errors: [],
  sample: [
    {
      line: 2,
      name: 'Cave',
      custodianEmail: 'lea@example.com',
      keys: [
        { name: 'Porte', type: 'KEY', tagCode: null },
        { name: 'Badge', type: 'TAG', tagCode: 'AGC-00001' },
      ],
    },
    { line: 4, name: 'Vide', custodianEmail: null, keys: [] },
  ],
  ...overrides,
})

type Sent = { url: string; headers: Record<string, string>; body: string }

function server(previews: ImportPreview[]) {
  const sent: Sent[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({
        url: String(url),
        headers: init.headers as Record<string, string>,
        body: String(init.body),
      })
      if (String(url).endsWith('/previews')) return Response.json(previews.shift())
      return Response.json({ keychains: 2, keys: 2, tags: 1 }, { status: 201 })
    }),
  )
  return sent
}

const choose = async (text: string) => {
  const input = screen.getByLabelText('CSV file')
  await act(async () => {
    fireEvent.change(input, { target: { files: [new File([text], 'keys.csv', { type: 'text/csv' })] } })
  })
}

async function renderScreen(permissions: string[] = ['create__keychain', 'read__keychain']) {
  await renderWithRouter(
    <AbilityProvider permissions={permissions}>
      <KeychainImportScreen organizationId="o1" />
    </AbilityProvider>,
  )
}

describe('the keychain import screen', () => {
  it('lists each bad row with its line, column, problem and value, and offers no import', async () => {
    const sent = server([
      preview({
        errorCount: 2,
        errors: [
          {
            line: 3,
            column: 'custodian_email',
            code: 'custodian_not_member',
            message: '…',
            value: 'x@example.com',
          },
          { line: 5, column: null, code: 'column_count', message: '…', value: '' },
        ],
      }),
    ])
    await renderScreen()
    await choose('keychain_name\r\nCave')
    await screen.findByText('2 errors in the file: nothing was imported. Fix the file and choose it again.')
    const rows = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent)
    expect(rows).toEqual([
      '3Custodian e-mailThe custodian must be a member of the organization.x@example.com',
      '5—The row has more cells than the header has columns.',
    ])
    expect(screen.queryByRole('button', { name: /^Import/ })).toBeNull()
    expect(sent).toHaveLength(1)
    expect(sent[0]!.url).toBe('/api/keychain-imports/previews')
    expect(JSON.parse(sent[0]!.body)).toEqual({ csv: 'keychain_name\r\nCave' })
  })

  it('imports a clean file with the Idempotency-Key made when it was chosen, and shows the result', async () => {
    const sent = server([preview()])
    await renderScreen()
    await choose('keychain_name;key_name\r\nCave;Porte')
    await screen.findByText('keys.csv: 3 rows, 2 keychains, 2 keys, 1 tags.')
    expect(screen.getByRole('table', { name: 'Keychains to import' }).textContent).toContain(
      'Porte, Badge (AGC-00001)',
    )
    const button = screen.getByRole('button', { name: 'Import 2 keychains' })
    await act(async () => {
      fireEvent.click(button)
    })
    await screen.findByText('Imported: 2 keychains, 2 keys, 1 tags.')
    expect(screen.getByRole('link', { name: 'See the keychains' })).toBeTruthy()
    const commit = sent.find((request) => request.url === '/api/keychain-imports')!
    expect(commit.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(JSON.parse(commit.body)).toEqual({ csv: 'keychain_name;key_name\r\nCave;Porte' })
  })

  const refusing = (error: object) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ error: { code: 'csv_invalid', ...error } }, { status: 400 })),
    )

  it('says why a file cannot be read, in the reader’s words, from the answer’s reason and where', async () => {
    refusing({ message: 'Unknown column "colour".', reason: 'unknown_column', column: 'colour' })
    await renderScreen()
    await choose('colour\r\nred')
    await screen.findByText(
      'The file could not be read: The header has an unknown column “colour”: the columns are keychain_name, custodian_email, key_name, key_type, tag_code, home.',
    )
  })

  it('words each reason of an unreadable file, with its line when known', async () => {
    const cases: Array<[object, string]> = [
      [
        { reason: 'not_csv', line: 7 },
        'The file stops being CSV at line 7: save it from your spreadsheet as CSV.',
      ],
      [{ reason: 'not_csv' }, 'The file is not CSV: save it from your spreadsheet as CSV.'],
      [{ reason: 'empty' }, 'The file is empty: it needs a header line and one row per key.'],
      [{ reason: 'no_rows' }, 'The file has no rows below its header.'],
      [
        { reason: 'repeated_column', column: 'Trousseau' },
        'The header names the same column twice (“Trousseau”).',
      ],
      [
        { reason: 'name_column_missing' },
        'The header must name the column keychain_name (the columns are keychain_name, custodian_email, key_name, key_type, tag_code, home).',
      ],
      [{ reason: 'too_many_rows' }, 'The file has more than 20000 rows: split it into several files.'],
      [
        { reason: 'too_many_empty_rows' },
        'The file has more than 20000 empty rows: delete them in the spreadsheet, then save it as CSV again.',
      ],
      [
        { reason: 'row_too_long', line: 12 },
        'The row at line 12 is longer than 10000 characters: check that every quote opening a cell is closed.',
      ],
      [
        { reason: 'row_too_long' },
        'The file has a row longer than 10000 characters: check that every quote opening a cell is closed.',
      ],
      // A reason this version does not know yet: the server's own message.
      [{ reason: 'from_the_future', message: 'Something new.' }, 'Something new.'],
    ]
    for (const [error, text] of cases) {
      refusing({ message: 'In English.', ...error })
      await renderScreen()
      await choose('x\r\ny')
      await screen.findByText(`The file could not be read: ${text}`)
      cleanup()
    }
  })

  it('shows nothing to import for a role that may not create keychains', async () => {
    await renderScreen(['read__keychain'])
    await screen.findByText('Your role does not allow importing keychains.')
    expect(screen.queryByLabelText('CSV file')).toBeNull()
  })
})
