import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Stack, startStack } from './harness.ts'
import { organizationOfNewAdmin } from './organizations.ts'

let stack: Stack

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

const ADMIN = 'ines.admin@example.com'
const MEMBER = 'lea.membre@example.com'

/** A file as French Excel saves "CSV UTF-8": byte order mark, `;`, CRLF, French headers. */
const excelFile = (name: string, rows: string[]) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(`\uFEFF${['Trousseau;Détenteur;Clé;Type;Étiquette', ...rows].join('\r\n')}\r\n`),
})

describe('the keychain CSV import in a real browser', () => {
  it('reports the 3 bad rows of a file with nothing written, then imports the fixed file', async () => {
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Agence Import')
    const [first, second] = await stack.createTags(organizationId, {
      alphaCode: 'KIM',
      count: 2,
      name: 'Import',
    })
    await stack.addMember(organizationId, MEMBER, 'MEMBER', 'Léa')
    const good = (row4: string, row5: string, row6: string) => [
      `Cave;${MEMBER};Porte;KEY;`,
      `Cave;${MEMBER};Badge;TAG;${first!.code}`,
      row4,
      row5,
      row6,
      'Vide;;;;',
    ]

    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto('/app/keychains')
      await page.getByRole('link', { name: 'Importer', exact: true }).click()
      await page.waitForURL((url) => url.pathname === '/app/keychains/import')
      await page.getByRole('heading', { level: 1, name: 'Importer des trousseaux' }).waitFor()

      // Three bad rows: a custodian who is not a member, an unknown tag code, a type that does not exist.
      await page
        .getByLabel('Fichier CSV')
        .setInputFiles(
          excelFile(
            'trousseaux.csv',
            good(
              'Garage;inconnu@example.com;Portail;KEY;',
              'Bureau;;Badge;TAG;KIM-99999',
              'Grenier;;Lucarne;CARTE;',
            ),
          ),
        )
      await page
        .getByText(
          "3 erreurs dans le fichier : rien n'a été importé. Corrigez le fichier et choisissez-le à nouveau.",
        )
        .waitFor()
      const errors = page.getByRole('table', { name: 'Erreurs du fichier' })
      const rows = await errors.locator('tbody tr').allInnerTexts()
      expect(rows.map((row) => row.split('\t').map((cell) => cell.trim()))).toEqual([
        [
          '4',
          'E-mail du détenteur',
          "Le détenteur doit être membre de l'organisation.",
          'inconnu@example.com',
        ],
        ['5', "Code d'étiquette", "Aucune étiquette de l'organisation n'a ce code.", 'KIM-99999'],
        ['6', 'Type de clé', 'Le type de clé doit être KEY ou TAG.', 'CARTE'],
      ])
      expect(await page.getByRole('button', { name: /^Importer \d+ trousseaux?$/ }).count()).toBe(0)
      await page.goto('/app/keychains')
      await page.getByText("Aucun trousseau pour l'instant.").waitFor()

      // The fixed file: previewed without errors, imported in one go.
      await page.getByRole('link', { name: 'Importer', exact: true }).click()
      await page.waitForURL((url) => url.pathname === '/app/keychains/import')
      await page
        .getByLabel('Fichier CSV')
        .setInputFiles(
          excelFile(
            'trousseaux-corrigé.csv',
            good(
              `Garage;${MEMBER};Portail;KEY;`,
              `Bureau;;Badge;TAG;${second!.code}`,
              'Grenier;;Lucarne;clé;',
            ),
          ),
        )
      await page.getByText('trousseaux-corrigé.csv : 6 lignes, 5 trousseaux, 5 clés, 2 étiquettes.').waitFor()
      await page
        .getByRole('table', { name: 'Trousseaux à importer' })
        .getByText('Porte, Badge (KIM-')
        .waitFor()
      await page.getByRole('button', { name: 'Importer 5 trousseaux' }).click()
      await page.getByText('Importé : 5 trousseaux, 5 clés, 2 étiquettes.').waitFor()
      await page.getByRole('link', { name: 'Voir les trousseaux' }).click()
      await page.waitForURL((url) => url.pathname === '/app/keychains')
      const list = page.getByRole('list', { name: 'Trousseaux' })
      await list.getByRole('link', { name: 'Cave' }).waitFor()
      expect(await list.getByRole('link').allInnerTexts()).toEqual([
        'Bureau',
        'Cave',
        'Garage',
        'Grenier',
        'Vide',
      ])
      await list.getByText(`2 clés · ${first!.code}`).waitFor()

      // The list's export link gives the same keychains back in the import's format.
      const href = await page.getByRole('link', { name: 'Exporter en CSV' }).getAttribute('href')
      const exported = await page.request.get(href!)
      expect(exported.status()).toBe(200)
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await exported.body())
      expect(text).toBe(
        [
          '\uFEFFkeychain_name,custodian_email,key_name,key_type,tag_code,home',
          `Bureau,,Badge,TAG,${second!.code},`,
          `Cave,${MEMBER},Porte,KEY,,`,
          `Cave,${MEMBER},Badge,TAG,${first!.code},`,
          `Garage,${MEMBER},Portail,KEY,,`,
          'Grenier,,Lucarne,KEY,,',
          'Vide,,,,,',
          '',
        ].join('\r\n'),
      )
    })
  })
})
