import type { Response } from 'playwright-core'
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

const ADMIN = 'nadia.admin@example.com'
const FINDER = 'camille.finder@example.net'

describe('a found-key report in a real browser', () => {
  it('goes from the finder to an admin, whose reply reaches the finder’s mailbox without either address', async () => {
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Agence Lumière')
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'FND', count: 1, name: 'Entrée' })
    await stack.createKeychainWithTag(organizationId, 'Appartement 12', tag!.id)

    // The finder scans the tag (English page) and writes, signed out.
    const noticed = stack.mailbox.received.length
    await stack.withPage(async (page) => {
      await page.goto(`/en/tags/${tag!.publicId}`)
      await page.getByRole('heading', { name: 'Found these keys?' }).waitFor()
      await page.locator('#root[data-ready]').waitFor()
      await page.getByLabel('Where did you find them?').fill('On a bench in the park, near the fountain.')
      await page.getByLabel('How can they reach you?').fill(`Camille, ${FINDER}`)
      await page.getByRole('button', { name: 'Tell the owners' }).click()
      await page.getByText('Thank you! The owners have been told and will contact you.').waitFor()
    })
    const notice = await stack.mailbox.nextMailTo(ADMIN, noticed)
    expect(notice.text).toContain('On a bench in the park')
    expect(notice.raw).not.toContain(FINDER)

    // The admin finds it from the menu, reads it and replies; nothing the browser receives holds the address.
    const bodies: string[] = []
    await stack.withPage(async (page) => {
      page.on('response', (response: Response) => {
        if (new URL(response.url()).pathname.startsWith('/api/'))
          void response.text().then(
            (text) => bodies.push(text),
            () => undefined,
          )
      })
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page
        .getByRole('navigation', { name: 'Menu principal' })
        .first()
        .getByRole('link', { name: 'Clés trouvées' })
        .click()
      await page.waitForURL((url) => url.pathname === '/app/found-reports')
      await page.getByText('On a bench in the park, near the fountain.').waitFor()
      await page.getByRole('link', { name: new RegExp(`Étiquette ${tag!.code}`) }).click()
      await page.waitForURL(/\/app\/found-reports\/[0-9a-f-]{36}$/)
      await page.getByRole('heading', { level: 1, name: `Clés trouvées : étiquette ${tag!.code}` }).waitFor()
      await page.getByText('Camille, …@…').waitFor()
      await page.getByText('Nouveau', { exact: true }).first().waitFor()
      await page
        .getByLabel('Répondre à la personne')
        .fill('Thank you so much! Could you leave them at the bakery?')
      await page.getByRole('button', { name: 'Envoyer la réponse' }).click()
      await page.getByText('Votre réponse a été transmise à la personne.').waitFor()
      await page.getByText('Contacté', { exact: true }).first().waitFor()
      await page.getByText('Thank you so much! Could you leave them at the bakery?').waitFor()
      expect(await page.content()).not.toContain(FINDER)
    })
    expect(bodies.length).toBeGreaterThan(0)
    for (const body of bodies) expect(body).not.toContain(FINDER)

    // The finder's mailbox: the reply, in English, from the server's address, with no admin address.
    const reply = await stack.mailbox.nextMailTo(FINDER, 0, 10_000, /bakery/)
    expect(reply.text).toContain('Thank you so much! Could you leave them at the bakery?')
    expect(reply.text).toContain('replied about the keys you found')
    expect(reply.text).toContain(`/en/tags/${tag!.publicId}`)
    expect(reply.raw).not.toContain(ADMIN)
    expect(reply.raw).not.toMatch(/^Reply-To:/im)
  })
})
