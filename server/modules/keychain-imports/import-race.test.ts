import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeKeychain, makeTags, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { untilALockIsAwaited } from '../../../tests/server/locks.ts'
import { keychains, keys } from '../../db/schema.ts'
import { parseKeychainCsv } from './csv.ts'
import { commitImport } from './service.ts'

const t = setupTestApp()

/**
 * A tag put on a key by another transaction after the import checked the file (PostgreSQL only: PGlite runs one
 * transaction at a time). The other transaction inserts its key and holds; the import checks (the tag is free in
 * what is committed), writes its keychains and reaches its keys, whose insert waits on the tag's unique index.
 * When the other commits, the import's insert fails: a 409 saying why, and nothing of the file is written.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('an import and a key taking one of its tags at once', () => {
  it('answers 409 "check the file again" and writes nothing', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const [tag] = await makeTags(t, organization.id, 1, 'RCE')
    const other = await makeKeychain(t, organization.id, 'Ailleurs')
    let release: () => void = () => {}
    let inserted: () => void = () => {}
    const keyIsIn = new Promise<void>((resolve) => {
      inserted = resolve
    })
    const taking = t.db.transaction(async (tx) => {
      await tx
        .insert(keys)
        .values({ keychainId: other.id, name: 'Pris', type: 'TAG', tagId: tag!.id, createdAt: t.clock.now() })
      inserted()
      await new Promise<void>((resolve) => {
        release = resolve
      })
    })
    await keyIsIn
    const file = await parseKeychainCsv(
      `keychain_name,key_name,tag_code\r\nCave,Porte,\r\nGarage,Badge,${tag!.code}`,
    )
    const importing = t.db
      .transaction((tx) =>
        commitImport(tx, {
          organizationId: organization.id,
          actorId: admin.profile.id,
          file,
          now: t.clock.now(),
        }),
      )
      .then(
        () => 'imported',
        (error: unknown) => error,
      )
    await untilALockIsAwaited(t)
    release()
    await taking
    expect(await importing).toMatchObject({
      status: 409,
      code: 'conflict',
      message: 'A tag of the file was put on a key meanwhile: check the file again.',
    })
    const names = (
      await t.db.select().from(keychains).where(eq(keychains.organizationId, organization.id))
    ).map((row) => row.name)
    expect(names).toEqual(['Ailleurs'])
  })
})
