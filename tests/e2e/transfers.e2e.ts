import { today } from '@internationalized/date'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Stack, startStack } from './harness.ts'
import { createOrganizationInApp } from './organizations.ts'

let stack: Stack
const ADMIN = 'camille.admin@example.com'
const CONTACT = 'plombier.dupont@example.com'
const MEMBER = 'yanis.member@example.com'
const PARIS = 'Europe/Paris'
const ARCHIVES = { line1: '14 rue des Archives', postalCode: '75004', city: 'Paris' }

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

/** Sets a day in a date field (the browser's own date input takes `YYYY-MM-DD` whatever its display order). */
async function setDate(page: Page, label: string, day: { toString(): string }) {
  await page.getByLabel(label, { exact: true }).fill(day.toString())
}

/** The dashboard figure of one tile, read from the section it is in. */
async function figure(page: Page, section: string, tile: string): Promise<number> {
  const link = page.getByRole('region', { name: section }).getByRole('link', { name: tile })
  const text = (await link.locator('span').first().textContent()) ?? ''
  return Number(text.replace(/\D/g, ''))
}

/** The dashboard's figures as painted now. */
async function figures(page: Page) {
  await page.getByRole('region', { name: 'Transferts en cours' }).waitFor()
  return {
    transfers: await figure(page, "Vue d'ensemble", 'Transferts'),
    scheduled: await figure(page, 'Transferts en cours', 'Planifié'),
    transferred: await figure(page, 'Transferts en cours', 'Transféré'),
    returning: await figure(page, 'Transferts en cours', 'Retour attendu'),
    expiredScheduled: await figure(page, 'Transferts expirés', 'Planifié'),
    expiredReturning: await figure(page, 'Transferts expirés', 'Retour attendu'),
  }
}

/**
 * Opens the dashboard and waits for the expected figures: the app paints the answer this device last saw at
 * once, then the server's.
 */
async function expectDashboard(page: Page, expected: Partial<Awaited<ReturnType<typeof figures>>>) {
  await page.goto('/app')
  await expect.poll(() => figures(page), { timeout: 10_000 }).toMatchObject(expected)
}

/** Types a tag code on the scan screen and waits for its transfer card. */
async function scanTag(page: Page, code: string) {
  await page.goto('/app/scan')
  await page.getByLabel("Code ou lien de l'étiquette").fill(code)
  await page.keyboard.press('Enter')
  await page.getByRole('region', { name: 'Transfert' }).waitFor()
}

describe('transfers in a real browser: authorize, pick up, return', () => {
  it('lives the whole life of a transfer to a new contact, with the dashboard following each step', async () => {
    let organizationId = ''
    let keychainId = ''
    let tagCode = ''
    const firstDay = today(PARIS)
    const returnDay = firstDay.add({ days: 2 })

    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      organizationId = await createOrganizationInApp(page, 'Syndic des Archives', ARCHIVES)
      await stack.subscribe(organizationId)
      const [tag] = await stack.createTags(organizationId, { alphaCode: 'ARC', count: 1, name: 'Cave' })
      tagCode = tag!.code
      keychainId = await stack.createKeychainWithTag(organizationId, 'Cave du 14', tag!.id)
      await stack.addMember(organizationId, MEMBER, 'MEMBER', 'Yanis')

      await page.goto(`/app/keychains/${keychainId}`)
      await page.getByRole('button', { name: 'Autoriser un transfert' }).click()
      await page.getByText('0 transferts utilisés sur', { exact: false }).waitFor()
      await page.getByLabel('Destinataire', { exact: true }).selectOption('email')
      await page.getByLabel('E-mail du destinataire').fill(CONTACT)
      // The from-date starts on today; a to-date on the same day is refused before anything is sent.
      await setDate(page, 'Au', firstDay)
      await page.getByRole('button', { name: 'Autoriser le transfert' }).click()
      await page.getByText('La date de fin doit suivre la date de début.').waitFor()
      await setDate(page, 'Au', returnDay)
      await page.getByRole('button', { name: 'Autoriser le transfert' }).click()
      await page.getByText('Transfert autorisé.', { exact: false }).waitFor()
      const row = page.getByRole('list', { name: 'Transferts' }).getByRole('listitem').first()
      await row.getByText('Planifié').waitFor()
      expect(await row.textContent()).toContain(CONTACT)

      await expectDashboard(page, {
        transfers: 1,
        scheduled: 1,
        transferred: 0,
        returning: 0,
        expiredScheduled: 0,
        expiredReturning: 0,
      })
    })

    // The contact gets the mail, signs in from its link and picks the keychain up by typing the tag's code.
    const mail = await stack.mailbox.nextMailTo(CONTACT, 0)
    expect(mail.text).toContain('Cave du 14')
    expect(mail.text).toContain('14 rue des Archives')
    const requestPath = /\/app\/transfers\/requests\/[0-9a-f-]{36}/.exec(mail.text)?.[0]
    expect(requestPath).toBeDefined()
    await stack.withPage(async (page) => {
      await page.goto(requestPath!)
      await page.waitForURL((url) => url.pathname === '/sign-in')
      await stack.signInByCode(page, CONTACT)
      await page.waitForURL((url) => url.pathname === requestPath)
      await page.getByRole('heading', { level: 1, name: 'Cave du 14' }).waitFor()
      await page.getByText('14 rue des Archives', { exact: false }).waitFor()
      await page.getByRole('button', { name: "Scanner l'étiquette du trousseau" }).click()
      await page.waitForURL((url) => url.pathname === '/app/scan')
      await page.getByLabel("Code ou lien de l'étiquette").fill(tagCode.toLowerCase())
      await page.keyboard.press('Enter')
      await page.getByRole('button', { name: 'Confirmer le retrait' }).click()
      // The recipient accepts the keychain (the handover receipt): a typed name here.
      await page.getByLabel('Votre nom').fill('Reçu par le terrain')
      await page.getByRole('button', { name: 'Accepter et confirmer le retrait' }).click()
      await page.getByText('Retrait confirmé.').waitFor()
      await page.getByText('Retiré : vous détenez maintenant ce trousseau.').waitFor()
    })

    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await expectDashboard(page, { scheduled: 0, transferred: 1, returning: 0 })
      await page.goto(`/app/keychains/${keychainId}`)
      const row = page.getByRole('list', { name: 'Transferts' }).getByRole('listitem').first()
      await row.getByText('Transféré').waitFor()
      // The contact holds it now: the custody log's last move is to them.
      const custody = page.getByRole('list', { name: 'Historique de garde' })
      expect(await custody.getByRole('listitem').first().textContent()).toContain(CONTACT)

      // The server's clock passes the start of the to-date: the keychain is now due back.
      stack.clock.jumpTo(new Date(returnDay.toDate(PARIS).getTime() + 60 * 60 * 1000))
      await expectDashboard(page, { transferred: 0, returning: 1, expiredReturning: 0 })
      await page
        .getByRole('region', { name: 'Transferts en cours' })
        .getByRole('link', { name: 'Retour attendu' })
        .click()
      await page.waitForURL((url) => url.pathname === '/app/transfers' && url.search.includes('RETURNING'))
      await page.getByRole('list', { name: 'Transferts' }).getByText('Cave du 14').waitFor()
    })

    // A member of the organization confirms the return by scanning the tag.
    await stack.withPage(async (page) => {
      await stack.signIn(page, MEMBER)
      await page.waitForURL((url) => url.pathname === '/app')
      await scanTag(page, tagCode)
      await page.getByRole('button', { name: 'Confirmer le retour' }).click()
      await page.getByText('Retour confirmé.').waitFor()
      await expectDashboard(page, {
        transfers: 1,
        scheduled: 0,
        transferred: 0,
        returning: 0,
        expiredScheduled: 0,
        expiredReturning: 0,
      })
    })
  })

  it('shows the subscription-required banner without a plan, and leads to the plans', async () => {
    await stack.withPage(async (page) => {
      await stack.signIn(page, 'noplan.admin@example.com')
      await page.waitForURL((url) => url.pathname === '/app')
      const organizationId = await createOrganizationInApp(page, 'Agence sans formule', ARCHIVES)
      const [tag] = await stack.createTags(organizationId, { alphaCode: 'NOP', count: 1, name: 'Hall' })
      const keychainId = await stack.createKeychainWithTag(organizationId, 'Hall B', tag!.id)
      await page.goto(`/app/keychains/${keychainId}/create-transfer`)
      await page.getByText('Un abonnement est nécessaire pour transférer des trousseaux.').waitFor()
      await page.getByRole('link', { name: 'Voir les formules' }).click()
      await page.waitForURL((url) => url.pathname === '/app/plans')
    })
  })
})
