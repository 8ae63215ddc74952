import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { permissionsFor } from '../../contract/permissions.ts'
import { scans, users } from '../../server/db/schema.ts'
import { setTagLost } from '../../server/modules/tags/lost.ts'
import { type Stack, startStack } from './harness.ts'
import { storedRows, storedTags } from './mirror.ts'
import { organizationOfNewAdmin } from './organizations.ts'

let stack: Stack
const ADMIN = 'lea.admin@lost.example.com'
const FIELD = 'sam.terrain@lost.example.com'

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

/** Whether the mirror holds the tag as lost (its packed tuple carries `lostAt` last). */
async function mirroredLost(page: Parameters<Parameters<Stack['withPage']>[0]>[0], code: string) {
  const buckets = (await storedRows(page, 'tagBuckets')) as { tags: (string | null)[][] }[]
  const packed = buckets.flatMap((bucket) => bucket.tags).find((each) => each[2] === code)
  return typeof packed?.[13] === 'string'
}

describe('a lost tag', () => {
  it('scanned online and offline (from the mirror) shows "lost"', async () => {
    const { deps } = stack
    const db = deps.database.db
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Résidence des Tilleuls', {
      line1: '8 rue des Tilleuls',
      postalCode: '69003',
      city: 'Lyon',
    })
    await stack.addMember(organizationId, FIELD, 'MEMBER', 'Sam')
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'TIL', count: 1, name: 'Cave' })
    await stack.createKeychainWithTag(organizationId, 'Local vélos', tag!.id)
    const [admin] = await db.select().from(users).where(eq(users.email, ADMIN))

    await stack.withPage(async (page, context) => {
      await stack.signIn(page, FIELD)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      await expect.poll(async () => (await storedTags(page)).length, { timeout: 15_000 }).toBe(1)

      // Not lost yet: the scan opens the keychain.
      await page.goto('/app/scan')
      await page.getByLabel("Code ou lien de l'étiquette").fill(tag!.code)
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { level: 1, name: 'Local vélos' }).waitFor()

      // The office declares it lost; the device learns it from the change feed.
      await setTagLost(deps, {
        scope: { organizationId, role: 'ADMIN', permissions: permissionsFor('ADMIN') },
        userId: admin!.id,
        tagId: tag!.id,
        lost: true,
      })

      // Online: the server answers lost.
      await page.goto('/app/scan')
      await page.getByLabel("Code ou lien de l'étiquette").fill(tag!.publicId)
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { level: 2, name: 'Étiquette perdue' }).waitFor()
      await page.getByText('Ses administrateurs ont été prévenus de ce scan.').waitFor()
      expect(await page.getByRole('link', { name: 'Ouvrir le trousseau' }).count()).toBe(0)
      const online = await db.select().from(scans).where(eq(scans.organizationId, organizationId))
      expect(online.map((scan) => scan.result).sort()).toEqual(['lost', 'resolved'])

      // The mirror gets the lost state (a refresh on focus or every 30 s; a reload starts one).
      await page.reload()
      await expect.poll(() => mirroredLost(page, tag!.code), { timeout: 40_000 }).toBe(true)

      // Offline: the mirror answers lost too.
      await context.setOffline(true)
      await page.reload()
      await page.getByTestId('offline-banner').waitFor()
      await page.getByLabel("Code ou lien de l'étiquette").fill(tag!.code)
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { level: 2, name: 'Étiquette perdue' }).waitFor()
      await page.getByText('Ses administrateurs seront prévenus de ce scan au retour du réseau.').waitFor()
      expect(await page.getByRole('link', { name: 'Ouvrir le trousseau' }).count()).toBe(0)

      // Back online, the queued scan is recorded as lost too.
      await context.setOffline(false)
      await expect
        .poll(
          async () => (await db.select().from(scans).where(eq(scans.organizationId, organizationId))).length,
          { timeout: 30_000 },
        )
        .toBe(3)
      const recorded = await db.select().from(scans).where(eq(scans.organizationId, organizationId))
      expect(recorded.filter((scan) => scan.result === 'lost')).toHaveLength(2)
    })
  })
})
