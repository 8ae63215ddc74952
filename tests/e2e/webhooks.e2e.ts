import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../server/webhook-receiver.ts'
import { type Stack, startStack } from './harness.ts'
import { organizationOfNewAdmin } from './organizations.ts'

let stack: Stack
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  // The receiver listens on loopback, which production refuses unless allowed.
  stack = await startStack({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })
  receiver = await startReceiver(() => 'accept')
})

afterAll(async () => {
  await receiver?.close()
  await stack?.stop()
})

const ADMIN = 'ines.admin@example.com'

describe('webhooks in a real browser', () => {
  it('an admin adds one from the organization page, copies its secret once, and a signed test arrives', async () => {
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Agence Crochet')
    let secret = ''
    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto(`/app/organizations/${organizationId}`)
      await page.getByRole('link', { name: 'Gérer les webhooks' }).click()
      await page.waitForURL((url) => url.pathname === '/app/webhooks')
      await page.getByText('Aucun webhook pour l’instant.').waitFor()

      // A plain http:// address elsewhere than this machine is refused before sending.
      await page.getByLabel('Adresse (URL)').fill('http://hooks.example.com/in')
      await page.getByRole('button', { name: 'Ajouter le webhook' }).click()
      await page.getByText('Saisissez une adresse https:// (http:// seulement pour cette machine').waitFor()

      await page.getByLabel('Adresse (URL)').fill(receiver.url)
      await page.getByLabel('Description').fill('ERP')
      await page.getByRole('checkbox', { name: 'Transfert en retard' }).uncheck()
      await page.getByRole('button', { name: 'Ajouter le webhook' }).click()
      secret = ((await page.getByTestId('webhook-secret').textContent()) ?? '').trim()
      expect(secret).toMatch(/^whsec_/)
      await page.getByRole('button', { name: 'Je l’ai copié' }).click()
      await expect(page.getByTestId('webhook-secret').count()).resolves.toBe(0)
      await page.getByRole('heading', { name: receiver.url }).waitFor()
      await page.getByText(`Secret de signature finissant par …${secret.slice(-4)}`).waitFor()
      expect(await page.content()).not.toContain(secret)

      await page.getByRole('button', { name: 'Envoyer un test' }).click()
      await page.getByText('Acceptée par le destinataire').waitFor()
      await page.getByText(/Essai 1, .* : HTTP 204/).waitFor()

      await page.getByRole('button', { name: 'Désactiver' }).click()
      await page.getByText('Désactivé', { exact: true }).waitFor()
    })
    const [sent, ...more] = receiver.received
    expect(more).toHaveLength(0)
    const body = JSON.parse(sent!.body)
    expect(body.type).toBe('webhook.test')
    const [t, v1] = String(sent!.headers['trousseau-signature'])
      .split(',')
      .map((pair) => pair.split('=')[1])
    expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${sent!.body}`).digest('hex'))
  })
})
