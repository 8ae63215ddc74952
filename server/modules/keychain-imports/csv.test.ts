import { describe, expect, it } from 'vitest'
import {
  IMPORT_MAX_EMPTY_ROWS,
  IMPORT_MAX_ROW_CHARS,
  IMPORT_MAX_ROWS,
} from '../../../contract/keychain-import.ts'
import { ApiError } from '../../http/errors.ts'
import { delimiterOf, headerKey, parseKeychainCsv, unescapeFormula } from './csv.ts'

/** The `csv_invalid` refusal `parseKeychainCsv` rejects with, as `{ reason, column?, line?, message }`. */
async function refusal(text: string) {
  try {
    await parseKeychainCsv(text)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    expect(error.status).toBe(400)
    expect(error.code).toBe('csv_invalid')
    return { ...error.fields, message: error.message }
  }
  throw new Error('parsed')
}

describe('the keychain CSV reader', () => {
  it('compares headers without case, accents, spaces or punctuation', () => {
    expect(headerKey(' E-mail du Détenteur ')).toBe('emaildudetenteur')
    expect(headerKey('Nom_du_trousseau')).toBe('nomdutrousseau')
  })

  it('takes `;` only when the header holds more semicolons than commas', () => {
    expect(delimiterOf('a;b;c\r\nx,y,z,w,v')).toBe(';')
    expect(delimiterOf('a,b;c;d\nx')).toBe(';')
    expect(delimiterOf('a;b,c,d')).toBe(',')
    expect(delimiterOf('a;b,c')).toBe(',')
    expect(delimiterOf('keychain_name')).toBe(',')
  })

  it('takes off the quote the export puts before a formula, and only there', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'])
      expect(unescapeFormula(`'${start}1`)).toBe(`${start}1`)
    expect(unescapeFormula("'abc")).toBe("'abc")
    expect(unescapeFormula("x'=1")).toBe("x'=1")
    expect(unescapeFormula('=1')).toBe('=1')
  })

  it('reads French headers and `;`, skips empty rows and a byte order mark, keeps each row’s line', async () => {
    const parsed = await parseKeychainCsv(
      '\uFEFFTrousseau;Clé;Type;Étiquette;\r\n Cave ; Porte ;KEY;;\r\n;;;;\r\n"Garage\nnord";Badge;TAG;AGC-00001;\r\n',
    )
    expect(parsed.delimiter).toBe(';')
    expect(parsed.rows).toEqual([
      {
        line: 2,
        cells: {
          keychain_name: 'Cave',
          custodian_email: '',
          key_name: 'Porte',
          key_type: 'KEY',
          tag_code: '',
          home: '',
        },
        extraCells: false,
      },
      {
        line: 5,
        cells: {
          keychain_name: 'Garage\nnord',
          custodian_email: '',
          key_name: 'Badge',
          key_type: 'TAG',
          tag_code: 'AGC-00001',
          home: '',
        },
        extraCells: false,
      },
    ])
  })

  it('marks a row with cells beyond the header, but not one with empty cells there', async () => {
    const { rows } = await parseKeychainCsv('keychain_name\r\nCave,,\r\nGarage, extra\r\n')
    expect(rows.map((row) => row.extraCells)).toEqual([false, true])
  })

  it('says why a file cannot be read, and where', async () => {
    expect(await refusal('')).toMatchObject({ reason: 'empty' })
    expect(await refusal('keychain_name,key_name\r\n,\r\n , \r\n')).toMatchObject({ reason: 'no_rows' })
    expect(
      await refusal('keychain_name,couleur de la clé très très très très longue et plus\r\nA,b'),
    ).toMatchObject({
      reason: 'unknown_column',
      column: 'couleur de la clé très très très très lo',
    })
    // A trailing delimiter leaves an empty last header: it is no column.
    expect((await parseKeychainCsv('keychain_name,\r\nA,')).rows).toHaveLength(1)
    expect(await refusal('keychain_name,,key_name\r\nA,,b')).toMatchObject({
      reason: 'unknown_column',
      column: '',
    })
    expect(await refusal('Trousseau,keychain_name\r\nA,B')).toMatchObject({
      reason: 'repeated_column',
      column: 'keychain_name',
    })
    expect(await refusal('key_name\r\nA')).toMatchObject({ reason: 'name_column_missing' })
    const broken = await refusal('keychain_name\r\nA\r\n"B\r\n')
    expect(broken).toMatchObject({ reason: 'not_csv', line: expect.any(Number) })
    expect(broken.message).toMatch(/^The file is not valid CSV/)
  })

  it('says each refusal in English: what is wrong and what the columns are', async () => {
    const columns = 'keychain_name, custodian_email, key_name, key_type, tag_code, home'
    expect((await refusal('')).message).toBe('The file is empty: it needs a header line and one row per key.')
    expect((await refusal('keychain_name\r\n')).message).toBe('The file has no rows below its header.')
    expect((await refusal('keychain_name,Couleur\r\nA,b')).message).toBe(
      `Unknown column "Couleur": the columns are ${columns}.`,
    )
    expect((await refusal('keychain_name,Nom du trousseau\r\nA,b')).message).toBe(
      'The column keychain_name appears twice in the header.',
    )
    expect((await refusal('Clé;Type\r\nA;KEY')).message).toBe(
      `The header must name the column keychain_name (the columns are ${columns}).`,
    )
    const broken = await refusal('keychain_name\r\nA\r\n"B\r\n')
    expect(broken.message).toMatch(/^The file is not valid CSV \(line \d+\): ./)
    expect(broken.message).toContain(`(line ${broken.line})`)
  })

  it(`takes ${IMPORT_MAX_ROWS} rows, empty ones not counted, and refuses one more`, async () => {
    const rows = Array.from({ length: IMPORT_MAX_ROWS }, (_, n) => `K${n}`)
    const most = `keychain_name\n${rows.join('\n')}\n,\n`
    expect((await parseKeychainCsv(most)).rows).toHaveLength(IMPORT_MAX_ROWS)
    expect(await refusal(`${most}K\n`)).toEqual({
      reason: 'too_many_rows',
      message: `The file has more than ${IMPORT_MAX_ROWS} rows: split it into several files.`,
    })
  })

  it('stops reading at the row past the limit: what follows it is never parsed', async () => {
    const rows = Array.from({ length: IMPORT_MAX_ROWS + 10_000 }, (_, n) => `K${n}`)
    // The quote left open at the end, some 70 KB further, would make the file not CSV were it read that far.
    expect(await refusal(`keychain_name\n${rows.join('\n')}\n"open`)).toMatchObject({
      reason: 'too_many_rows',
    })
  })

  it(`skips ${IMPORT_MAX_EMPTY_ROWS} empty rows, and refuses one more`, async () => {
    const empty = ',\n'.repeat(IMPORT_MAX_EMPTY_ROWS)
    expect((await parseKeychainCsv(`keychain_name,key_name\n${empty}Cave,Porte\n`)).rows).toEqual([
      expect.objectContaining({ line: IMPORT_MAX_EMPTY_ROWS + 2 }),
    ])
    expect(await refusal(`keychain_name,key_name\n${empty} , \nCave,Porte\n`)).toEqual({
      reason: 'too_many_empty_rows',
      message: `The file has more than ${IMPORT_MAX_EMPTY_ROWS} empty rows: delete them in the spreadsheet.`,
    })
  })

  it(`refuses a row longer than ${IMPORT_MAX_ROW_CHARS} characters, saying the line it reached`, async () => {
    const long = 'x'.repeat(IMPORT_MAX_ROW_CHARS)
    expect(await refusal(`keychain_name,key_name\nCave,${long}\n`)).toEqual({
      reason: 'row_too_long',
      line: 2,
      message: `The row at line 2 is longer than ${IMPORT_MAX_ROW_CHARS} characters: is a quote that opens a cell left unclosed?`,
    })
    // A quote left open: the rest of the file is one cell.
    expect(await refusal(`keychain_name\nCave\n"Garage\n${'Porte\n'.repeat(2000)}`)).toMatchObject({
      reason: 'row_too_long',
      line: expect.any(Number),
    })
    // Cells count too, empty ones aside: a million delimiters are one row too long, not a million-cell row.
    expect(await refusal(`keychain_name\nCave${','.repeat(1_000_000)}x\n`)).toMatchObject({
      reason: 'row_too_long',
      line: 2,
    })
    expect(
      (await parseKeychainCsv(`keychain_name\nCave,${'y'.repeat(IMPORT_MAX_ROW_CHARS - 10)}\n`)).rows,
    ).toHaveLength(1)
  })

  it('cuts a row into 1,000 cells at most: the rest of the row is the last one, an extra cell', async () => {
    const { rows } = await parseKeychainCsv(
      `keychain_name\nCave${',a'.repeat(999)}\nGarage${','.repeat(999)}\nBureau${','.repeat(1200)}\n`,
    )
    expect(rows.map((row) => [row.cells.keychain_name, row.extraCells])).toEqual([
      ['Cave', true],
      ['Garage', false],
      ['Bureau', true],
    ])
  })

  it('trims each cell, takes off a formula’s quote, reads LF files', async () => {
    const { rows, delimiter } = await parseKeychainCsv(
      "keychain_name,key_name,tag_code\n  '=Cave  ,\t'-1 porte ,' \nGarage,,\n",
    )
    expect(delimiter).toBe(',')
    expect(
      rows.map((row) => [row.line, row.cells.keychain_name, row.cells.key_name, row.cells.tag_code]),
    ).toEqual([
      [2, '=Cave', '-1 porte', "'"],
      [3, 'Garage', '', ''],
    ])
    expect(rows[0]!.cells).toEqual({
      keychain_name: '=Cave',
      custodian_email: '',
      key_name: '-1 porte',
      key_type: '',
      tag_code: "'",
      home: '',
    })
  })

  it('reads the delimiter from the header line alone, whatever ends it', () => {
    expect(delimiterOf('a;b;c\nx,y,z,w,v,u')).toBe(';')
    expect(delimiterOf('a\nx;y;z')).toBe(',')
    expect(delimiterOf('a;b,')).toBe(',')
  })

  it('drops the byte order mark before reading a quoted first header; blanks are no header, no cell, no name', async () => {
    const { rows } = await parseKeychainCsv('\uFEFF"Nom, du trousseau",key_name, \r\nCave,Porte, \r\n')
    expect(rows).toEqual([
      {
        line: 2,
        cells: {
          keychain_name: 'Cave',
          custodian_email: '',
          key_name: 'Porte',
          key_type: '',
          tag_code: '',
          home: '',
        },
        extraCells: false,
      },
    ])
    expect((await parseKeychainCsv('keychain_name\r\nCave, \t\r\n')).rows[0]!.extraCells).toBe(false)
    expect(await refusal('keychain_name, Couleur \r\nA,b')).toMatchObject({
      reason: 'unknown_column',
      column: 'Couleur',
    })
  })
})
