import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { makeKeychain, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { findKeychain } from './find.ts'

const t = setupTestApp()

describe('findKeychain', () => {
  it('reads the organization’s keychain, locked or not', async () => {
    const { organization } = await organizationWithAdmin(t)
    const cave = await makeKeychain(t, organization.id, 'Cave')
    expect(await findKeychain(t.db, organization.id, cave.id)).toEqual(cave)
    expect(
      await t.db.transaction((tx) => findKeychain(tx, organization.id, cave.id, { lock: true })),
    ).toEqual(cave)
  })

  it('answers 404 "No such keychain." for another organization’s keychain and for one that does not exist', async () => {
    const { organization } = await organizationWithAdmin(t)
    const other = await organizationWithAdmin(t, 'Ailleurs')
    const theirs = await makeKeychain(t, other.organization.id, 'Theirs')
    for (const id of [theirs.id, randomUUID()])
      for (const lock of [false, true])
        await expect(
          t.db.transaction((tx) => findKeychain(tx, organization.id, id, { lock })),
        ).rejects.toMatchObject({ status: 404, code: 'not_found', message: 'No such keychain.' })
  })

  it('answers the same 404 through the API', async () => {
    const { admin } = await organizationWithAdmin(t)
    const other = await organizationWithAdmin(t, 'Ailleurs')
    const theirs = await makeKeychain(t, other.organization.id, 'Theirs')
    const response = await t.get(`/api/keychains/${theirs.id}`, { cookie: admin.cookie })
    expect(response.status).toBe(404)
    expect((await response.json()).error).toMatchObject({ code: 'not_found', message: 'No such keychain.' })
  })
})
