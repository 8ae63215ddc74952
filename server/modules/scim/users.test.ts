import { and, asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { ScimUserInput } from '../../../contract/scim.ts'
import { addMember, createOrganization } from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { statementsOf } from '../../../tests/server/statement-count.ts'
import { type MembershipRow, memberships, organizationEvents, type UserRow, users } from '../../db/schema.ts'
import { ScimError } from './errors.ts'
import {
  changeScimUser,
  createScimUser,
  deleteScimUser,
  findScimUser,
  listScimUsers,
  type ScimCaller,
  scimLocation,
  toScimUser,
} from './users.ts'

const t = setupTestApp()
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
const BASE = 'https://keys.example/trousseau'
const T0 = new Date('2030-03-01T08:00:00.000Z')
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000)

/** An account inserted directly (never signed in unless told). */
async function account(email = uniqueEmail('person'), values: Partial<typeof users.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(users)
    .values({ email, createdAt: t.clock.now(), lastSeenAt: t.clock.now(), ...values })
    .returning()
  return row!
}

/** An organization with an ACTIVE admin, and the caller a SCIM token of that admin (role MEMBER) makes. */
async function world(role: ScimCaller['role'] = 'MEMBER') {
  t.clock.set(T0)
  const organization = await createOrganization(t, 'Campus')
  const admin = await account(uniqueEmail('admin'), { firstName: 'Grace', lastName: 'Admin', signedInAt: T0 })
  await addMember(t, { userId: admin.id, organizationId: organization.id, role: 'ADMIN', select: false })
  const caller: ScimCaller = { organizationId: organization.id, actorId: admin.id, role }
  return { organization, admin, caller }
}

const input = (userName: string, extra: Partial<ScimUserInput> = {}): ScimUserInput => ({
  schemas: [USER],
  userName,
  active: true,
  ...extra,
})

async function membershipOf(organizationId: string, userId: string) {
  const [row] = await t.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
  return row
}

async function userOf(id: string) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id))
  return row!
}

async function eventsOf(organizationId: string) {
  return t.db
    .select({
      kind: organizationEvents.kind,
      actorId: organizationEvents.actorId,
      serverTime: organizationEvents.serverTime,
      payload: organizationEvents.payload,
    })
    .from(organizationEvents)
    .where(eq(organizationEvents.organizationId, organizationId))
    .orderBy(asc(organizationEvents.seq))
}

/** What a SCIM function threw, as the identity provider reads it. */
async function refusalOf(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (!(error instanceof ScimError)) throw error
    return { status: error.status, scimType: error.scimType, detail: error.message }
  }
  throw new Error('it was accepted')
}

const NOT_FOUND = { status: 404, scimType: undefined, detail: 'No such user.' }

/** The first word of each statement drizzle sent: what a call costs and whether it writes. */
async function verbsOf(run: () => Promise<unknown>) {
  const { statements } = await statementsOf(run)
  return statements.map((statement) => statement.split(/\s/)[0]!.toLowerCase())
}

function row(
  user: Partial<UserRow>,
  membership: Partial<MembershipRow>,
  elsewhere = false,
): Parameters<typeof toScimUser>[0] {
  return {
    user: {
      id: '2b1c6c3e-51d8-4f55-9a3b-0c6a4b1d2e3f',
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      signedInAt: null,
      ...user,
    } as UserRow,
    membership: {
      status: 'INVITED',
      role: 'MEMBER',
      externalId: null,
      createdAt: new Date('2030-02-03T04:05:06.789Z'),
      ...membership,
    } as MembershipRow,
    elsewhere,
  }
}

describe('scimLocation', () => {
  it('puts the resource under PUBLIC_URL, its base path kept, with or without a final slash', () => {
    expect(scimLocation(BASE, 'abc')).toBe('https://keys.example/trousseau/scim/v2/Users/abc')
    expect(scimLocation(`${BASE}/`, 'abc')).toBe('https://keys.example/trousseau/scim/v2/Users/abc')
    expect(scimLocation('http://localhost:3000', 'abc')).toBe('http://localhost:3000/scim/v2/Users/abc')
    expect(scimLocation('http://localhost:3000/', 'abc')).toBe('http://localhost:3000/scim/v2/Users/abc')
  })
})

describe('toScimUser', () => {
  it('shows the organization’s own invitee with their names, externalId, work e-mail and membership date', () => {
    expect(toScimUser(row({}, { externalId: 'e-1' }), BASE)).toStrictEqual({
      schemas: [USER],
      id: '2b1c6c3e-51d8-4f55-9a3b-0c6a4b1d2e3f',
      externalId: 'e-1',
      userName: 'ada@example.test',
      name: { givenName: 'Ada', familyName: 'Lovelace', formatted: 'Ada Lovelace' },
      displayName: 'Ada Lovelace',
      emails: [{ value: 'ada@example.test', type: 'work', primary: true }],
      active: true,
      meta: {
        resourceType: 'User',
        created: '2030-02-03T04:05:06.789Z',
        location: 'https://keys.example/trousseau/scim/v2/Users/2b1c6c3e-51d8-4f55-9a3b-0c6a4b1d2e3f',
      },
    })
  })

  it('leaves externalId out when there is none, and formats a single name without spaces', () => {
    const given = toScimUser(row({ lastName: '' }, { status: 'ACTIVE' }), `${BASE}/`)
    expect(given).not.toHaveProperty('externalId')
    expect(given).toMatchObject({
      name: { givenName: 'Ada', familyName: '', formatted: 'Ada' },
      displayName: 'Ada',
      active: true,
      meta: { location: 'https://keys.example/trousseau/scim/v2/Users/2b1c6c3e-51d8-4f55-9a3b-0c6a4b1d2e3f' },
    })
    expect(toScimUser(row({ firstName: '' }, { status: 'ACTIVE' }), BASE)).toMatchObject({
      name: { givenName: '', familyName: 'Lovelace', formatted: 'Lovelace' },
      displayName: 'Lovelace',
    })
  })

  it('falls back on the e-mail for the display name when no name shows', () => {
    expect(toScimUser(row({ firstName: '', lastName: '' }, { status: 'ACTIVE' }), BASE)).toMatchObject({
      name: { givenName: '', familyName: '', formatted: '' },
      displayName: 'ada@example.test',
    })
  })

  it('hides the account’s names unless the person is ACTIVE here or the organization’s own invitee', () => {
    const hidden = {
      name: { givenName: '', familyName: '', formatted: '' },
      displayName: 'ada@example.test',
    }
    expect(toScimUser(row({ signedInAt: new Date() }, {}), BASE)).toMatchObject({ ...hidden, active: true })
    expect(toScimUser(row({}, {}, true), BASE)).toMatchObject({ ...hidden, active: true })
    expect(toScimUser(row({}, { status: 'DISABLED' }), BASE)).toMatchObject({ ...hidden, active: false })
    expect(toScimUser(row({ signedInAt: new Date() }, { status: 'ACTIVE' }, true), BASE)).toMatchObject({
      name: { givenName: 'Ada', familyName: 'Lovelace', formatted: 'Ada Lovelace' },
      active: true,
    })
  })
})

describe('findScimUser', () => {
  it('finds a provisioned person by id in any case, and refuses every other id with 404 before asking the database', async () => {
    const { organization, caller } = await world()
    // Every group of this id holds 0, 9, a and f: the id pattern takes all of them.
    const id = '09af09af-09af-09af-09af-09af09af09af'
    await account(uniqueEmail('hex'), { id })
    await addMember(t, { userId: id, organizationId: organization.id, role: 'MEMBER', select: false })
    expect((await findScimUser(t.db, caller.organizationId, id)).user.id).toBe(id)
    const found = await findScimUser(t.db, caller.organizationId, id.toUpperCase())
    expect(found).toMatchObject({
      user: { id },
      membership: { organizationId: organization.id },
      elsewhere: false,
    })
    for (const malformed of [
      'nope',
      '',
      `${id}0`,
      `0${id}`,
      `x${id}`,
      `${id}x`,
      '09af09a-09af-09af-09af-09af09af09af',
      '09af09af0-09af-09af-09af-09af09af09af',
      '09af09af-09a-09af-09af-09af09af09af',
      '09af09af-09af0-09af-09af-09af09af09af',
      '09af09af-09af-09a-09af-09af09af09af',
      '09af09af-09af-09af0-09af-09af09af09af',
      '09af09af-09af-09af-09a-09af09af09af',
      '09af09af-09af-09af-09af0-09af09af09af',
      '09af09af-09af-09af-09af-09af09af09a',
      '09af09af-09af-09af-09af-09af09af09af0',
      '09ag09af-09af-09af-09af-09af09af09af',
      '09af09af_09af_09af_09af_09af09af09af',
      '09af09af-09af-09af-09af-09af09af09a ',
      ` 09af09af-09af-09af-09af-09af09af09af`,
    ]) {
      const { statements } = await statementsOf(async () => {
        expect(await refusalOf(findScimUser(t.db, caller.organizationId, malformed))).toEqual(NOT_FOUND)
      })
      expect(statements).toEqual([])
    }
  })

  it('answers 404 for an unknown person, another organization’s and one the provider deleted', async () => {
    const { caller } = await world()
    const other = await world()
    const theirs = await createScimUser(t.deps, other.caller, input(uniqueEmail('theirs')))
    const deleted = await createScimUser(t.deps, caller, input(uniqueEmail('gone')))
    await deleteScimUser(t.deps, caller, deleted.id)
    for (const id of ['00000000-0000-4000-8000-000000000000', theirs.id, deleted.id]) {
      expect(await refusalOf(findScimUser(t.db, caller.organizationId, id))).toEqual(NOT_FOUND)
    }
    expect((await findScimUser(t.db, other.caller.organizationId, theirs.id)).user.id).toBe(theirs.id)
  })
})

describe('listScimUsers', () => {
  /** The admin, then a person, two people added at the same time (by id), a disabled one; not the deleted one. */
  async function people() {
    const { organization, admin, caller } = await world()
    t.clock.set(at(10))
    const first = await createScimUser(t.deps, caller, input(uniqueEmail('first'), { externalId: 'e-first' }))
    t.clock.set(at(20))
    const suffix = organization.id.slice(8)
    const later = await account(uniqueEmail('later'), { id: `bbbbbbbb${suffix}` })
    const earlier = await account(uniqueEmail('earlier'), { id: `aaaaaaaa${suffix}` })
    for (const each of [later, earlier]) {
      await addMember(t, { userId: each.id, organizationId: organization.id, role: 'MEMBER', select: false })
    }
    t.clock.set(at(30))
    const disabled = await createScimUser(t.deps, caller, input(uniqueEmail('off'), { active: false }))
    t.clock.set(at(5))
    const deleted = await createScimUser(t.deps, caller, input(uniqueEmail('gone')))
    await deleteScimUser(t.deps, caller, deleted.id)
    await createScimUser(t.deps, (await world()).caller, input(uniqueEmail('elsewhere')))
    return { caller, ids: [admin.id, first.id, earlier.id, later.id, disabled.id], first, disabled }
  }

  const listed = (caller: ScimCaller, query: Partial<Parameters<typeof listScimUsers>[2]>) =>
    listScimUsers({ database: t.database, config: { ...t.config, publicUrl: BASE } }, caller, {
      filter: null,
      startIndex: 1,
      count: 100,
      ...query,
    })
  const idsOf = (page: { Resources: Array<{ id: string }> }) => page.Resources.map((each) => each.id)

  it('lists every person of the organization, disabled ones included, oldest membership first, then by id', async () => {
    const { caller, ids, first, disabled } = await people()
    const page = await listed(caller, {})
    expect(page).toMatchObject({ schemas: [LIST], totalResults: 5, itemsPerPage: 5, startIndex: 1 })
    expect(idsOf(page)).toEqual(ids)
    expect(page.Resources[1]).toStrictEqual({
      ...first,
      meta: { ...first.meta, location: scimLocation(BASE, first.id) },
    })
    expect(page.Resources[4]).toMatchObject({ id: disabled.id, active: false })
    expect(Object.keys(page)).toEqual(['schemas', 'totalResults', 'itemsPerPage', 'startIndex', 'Resources'])
  })

  it('pages with a 1-based startIndex (0 read as 1) and count, to the last page and past it', async () => {
    const { caller, ids } = await people()
    const zero = await listed(caller, { startIndex: 0, count: 2 })
    expect(zero).toMatchObject({ totalResults: 5, itemsPerPage: 2, startIndex: 1 })
    expect(idsOf(zero)).toEqual(ids.slice(0, 2))
    expect(idsOf(await listed(caller, { startIndex: 1, count: 2 }))).toEqual(ids.slice(0, 2))
    const second = await listed(caller, { startIndex: 3, count: 2 })
    expect(second).toMatchObject({ totalResults: 5, itemsPerPage: 2, startIndex: 3 })
    expect(idsOf(second)).toEqual(ids.slice(2, 4))
    const last = await listed(caller, { startIndex: 5, count: 2 })
    expect(last).toMatchObject({ totalResults: 5, itemsPerPage: 1, startIndex: 5 })
    expect(idsOf(last)).toEqual(ids.slice(4))
    expect(await listed(caller, { startIndex: 6, count: 2 })).toEqual({
      schemas: [LIST],
      totalResults: 5,
      itemsPerPage: 0,
      startIndex: 6,
      Resources: [],
    })
  })

  it('answers count 0 with the total alone, in one statement', async () => {
    const { caller } = await people()
    const { result, statements } = await statementsOf(() => listed(caller, { startIndex: 2, count: 0 }))
    expect(result).toEqual({
      schemas: [LIST],
      totalResults: 5,
      itemsPerPage: 0,
      startIndex: 2,
      Resources: [],
    })
    expect(statements).toHaveLength(1)
  })

  it('filters by userName or by externalId, counting only the matches', async () => {
    const { caller, first } = await people()
    const byName = await listed(caller, { filter: { attribute: 'userName', value: first.userName } })
    expect(byName).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 })
    expect(idsOf(byName)).toEqual([first.id])
    const byExternal = await listed(caller, { filter: { attribute: 'externalId', value: 'e-first' } })
    expect(byExternal).toMatchObject({ totalResults: 1, itemsPerPage: 1 })
    expect(idsOf(byExternal)).toEqual([first.id])
    expect(
      await listed(caller, { filter: { attribute: 'externalId', value: first.userName } }),
    ).toMatchObject({
      totalResults: 0,
      itemsPerPage: 0,
      Resources: [],
    })
    expect(await listed(caller, { filter: { attribute: 'userName', value: 'e-first' } })).toMatchObject({
      totalResults: 0,
      Resources: [],
    })
  })

  it('does not find the people it deleted or another organization’s by filter either', async () => {
    const { caller } = await people()
    const gone = await createScimUser(t.deps, caller, input(uniqueEmail('gone'), { externalId: 'x-gone' }))
    await deleteScimUser(t.deps, caller, gone.id)
    for (const filter of [
      { attribute: 'userName' as const, value: gone.userName },
      { attribute: 'externalId' as const, value: 'x-gone' },
    ]) {
      expect(await listed(caller, { filter })).toMatchObject({
        totalResults: 0,
        itemsPerPage: 0,
        Resources: [],
      })
    }
  })
})

describe('createScimUser', () => {
  it('creates a new account with the provider’s names and an INVITED membership with the token’s role, and logs it', async () => {
    const { organization, admin, caller } = await world('MANAGER')
    t.clock.set(at(7))
    const email = uniqueEmail('ada')
    const user = await createScimUser(
      t.deps,
      caller,
      input(email, { externalId: 'e-1', name: { givenName: 'Ada', familyName: 'Lovelace' } }),
    )
    expect(user).toStrictEqual({
      schemas: [USER],
      id: user.id,
      externalId: 'e-1',
      userName: email,
      name: { givenName: 'Ada', familyName: 'Lovelace', formatted: 'Ada Lovelace' },
      displayName: 'Ada Lovelace',
      emails: [{ value: email, type: 'work', primary: true }],
      active: true,
      meta: {
        resourceType: 'User',
        created: at(7).toISOString(),
        location: `http://localhost:3000/scim/v2/Users/${user.id}`,
      },
    })
    expect(await userOf(user.id)).toMatchObject({
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      createdAt: at(7),
      lastSeenAt: at(7),
      signedInAt: null,
    })
    expect(await membershipOf(organization.id, user.id)).toEqual({
      userId: user.id,
      organizationId: organization.id,
      role: 'MANAGER',
      status: 'INVITED',
      createdAt: at(7),
      externalId: 'e-1',
      scimRemovedAt: null,
    })
    expect(await eventsOf(organization.id)).toEqual([
      {
        kind: 'member.invited',
        actorId: admin.id,
        serverTime: at(7),
        payload: { memberId: user.id, role: 'MANAGER' },
      },
    ])
    // No invitation mail: the provider tells its people how to sign in.
    expect(t.mail.to(email)).toEqual([])
  })

  it('creates without names or externalId, and DISABLED when created inactive', async () => {
    const { organization, caller } = await world()
    const email = uniqueEmail('bare')
    const user = await createScimUser(
      t.deps,
      caller,
      input(email, { active: false, name: null, externalId: null }),
    )
    expect(user).not.toHaveProperty('externalId')
    expect(user).toMatchObject({
      name: { givenName: '', familyName: '', formatted: '' },
      displayName: email,
      active: false,
    })
    expect(await userOf(user.id)).toMatchObject({ firstName: '', lastName: '' })
    expect(await membershipOf(organization.id, user.id)).toMatchObject({
      status: 'DISABLED',
      externalId: null,
    })
    const named = await createScimUser(
      t.deps,
      caller,
      input(uniqueEmail('given'), { name: { givenName: 'Solo' } }),
    )
    expect(await userOf(named.id)).toMatchObject({ firstName: 'Solo', lastName: '' })
    const family = await createScimUser(
      t.deps,
      caller,
      input(uniqueEmail('family'), { name: { familyName: 'Only' } }),
    )
    expect(await userOf(family.id)).toMatchObject({ firstName: '', lastName: 'Only' })
  })

  it('looks for another person with the externalId only when one is given', async () => {
    const { caller } = await world()
    const lookups = async (extra: Partial<ScimUserInput>) => {
      const { statements } = await statementsOf(() =>
        createScimUser(t.deps, caller, input(uniqueEmail('cost'), extra)),
      )
      return statements.filter((statement) => statement.includes('"external_id" = '))
    }
    expect(await lookups({})).toEqual([])
    expect(await lookups({ externalId: 'c-1' })).toHaveLength(1)
  })

  it('adds an existing account without touching its names, which then stay hidden', async () => {
    const { organization, caller } = await world()
    const existing = await account(uniqueEmail('known'), {
      firstName: 'Own',
      lastName: 'Name',
      signedInAt: T0,
    })
    const user = await createScimUser(
      t.deps,
      caller,
      input(existing.email, {
        name: { givenName: 'Provider', familyName: 'Given' },
      }),
    )
    expect(user).toMatchObject({
      id: existing.id,
      userName: existing.email,
      name: { givenName: '', familyName: '' },
    })
    expect(await userOf(existing.id)).toMatchObject({ firstName: 'Own', lastName: 'Name', signedInAt: T0 })
    expect(await membershipOf(organization.id, existing.id)).toMatchObject({
      status: 'INVITED',
      role: 'MEMBER',
    })
  })

  it('refuses a person already in the organization, and an externalId another person has (409 uniqueness), changing nothing', async () => {
    const { organization, caller } = await world()
    const first = await createScimUser(t.deps, caller, input(uniqueEmail('one'), { externalId: 'x-1' }))
    const events = await eventsOf(organization.id)
    expect(await refusalOf(createScimUser(t.deps, caller, input(first.userName)))).toEqual({
      status: 409,
      scimType: 'uniqueness',
      detail: 'This person is already a member of the organization.',
    })
    const email = uniqueEmail('two')
    expect(await refusalOf(createScimUser(t.deps, caller, input(email, { externalId: 'x-1' })))).toEqual({
      status: 409,
      scimType: 'uniqueness',
      detail: 'Another person of the organization has this externalId.',
    })
    expect(await t.db.select().from(users).where(eq(users.email, email))).toEqual([])
    expect(await eventsOf(organization.id)).toEqual(events)
    // Another organization's provider may use the same externalId.
    const other = await world()
    expect(await createScimUser(t.deps, other.caller, input(email, { externalId: 'x-1' }))).toMatchObject({
      externalId: 'x-1',
    })
  })

  it('brings a person it deleted back on the same membership: its role and date kept, its externalId and status new', async () => {
    const { organization, admin, caller } = await world()
    t.clock.set(at(1))
    const hire = await createScimUser(t.deps, caller, input(uniqueEmail('back'), { externalId: 'b-1' }))
    t.clock.set(at(2))
    await deleteScimUser(t.deps, caller, hire.id)
    t.clock.set(at(3))
    const managers = { ...caller, role: 'MANAGER' as const }
    const back = await createScimUser(t.deps, managers, input(hire.userName, { externalId: 'b-1' }))
    expect(back).toStrictEqual(hire)
    expect(await membershipOf(organization.id, hire.id)).toEqual({
      userId: hire.id,
      organizationId: organization.id,
      role: 'MEMBER',
      status: 'INVITED',
      createdAt: at(1),
      externalId: 'b-1',
      scimRemovedAt: null,
    })
    const events = await eventsOf(organization.id)
    expect(events.at(-1)).toEqual({
      kind: 'member.invited',
      actorId: admin.id,
      serverTime: at(3),
      payload: { memberId: hire.id, role: 'MEMBER' },
    })
    await deleteScimUser(t.deps, caller, hire.id)
    const off = await createScimUser(
      t.deps,
      caller,
      input(hire.userName, { externalId: null, active: false }),
    )
    expect(off).toMatchObject({ id: hire.id, active: false })
    expect(off).not.toHaveProperty('externalId')
    expect(await membershipOf(organization.id, hire.id)).toMatchObject({
      status: 'DISABLED',
      externalId: null,
      scimRemovedAt: null,
    })
  })
})

describe('changeScimUser', () => {
  it('changes the own invitee’s names, e-mail and externalId, logging the change as the token’s creator', async () => {
    const { organization, admin, caller } = await world()
    const hire = await createScimUser(
      t.deps,
      caller,
      input(uniqueEmail('hire'), { name: { givenName: 'Ada', familyName: 'Lovelace' } }),
    )
    t.clock.set(at(9))
    const email = uniqueEmail('renamed')
    const changed = await changeScimUser(t.deps, caller, hire.id, {
      userName: email,
      givenName: 'Augusta',
      familyName: 'King',
      externalId: 'k-2',
    })
    expect(changed).toStrictEqual({
      ...hire,
      externalId: 'k-2',
      userName: email,
      name: { givenName: 'Augusta', familyName: 'King', formatted: 'Augusta King' },
      displayName: 'Augusta King',
      emails: [{ value: email, type: 'work', primary: true }],
    })
    expect(await userOf(hire.id)).toMatchObject({ email, firstName: 'Augusta', lastName: 'King' })
    expect(await membershipOf(organization.id, hire.id)).toMatchObject({
      externalId: 'k-2',
      status: 'INVITED',
    })
    expect((await eventsOf(organization.id)).at(-1)).toEqual({
      kind: 'member.changed',
      actorId: admin.id,
      serverTime: at(9),
      payload: {
        memberId: hire.id,
        changed: ['firstName', 'lastName', 'email'],
        role: 'MEMBER',
        status: 'INVITED',
      },
    })
    expect(await changeScimUser(t.deps, caller, hire.id, { givenName: 'Only' })).toMatchObject({
      name: { givenName: 'Only', familyName: 'King' },
    })
    expect(await changeScimUser(t.deps, caller, hire.id, { familyName: 'Last' })).toMatchObject({
      name: { givenName: 'Only', familyName: 'Last' },
    })
  })

  it('keeps the names of someone who signed in and refuses a new e-mail for them (400 mutability)', async () => {
    const { organization, caller } = await world()
    const member = await account(uniqueEmail('signed'), {
      firstName: 'Own',
      lastName: 'Name',
      signedInAt: T0,
    })
    await addMember(t, { userId: member.id, organizationId: organization.id, role: 'MEMBER', select: false })
    const kept = await changeScimUser(t.deps, caller, member.id, {
      userName: member.email,
      givenName: 'Other',
      familyName: 'Person',
    })
    expect(kept).toMatchObject({ userName: member.email, name: { givenName: 'Own', familyName: 'Name' } })
    expect(await userOf(member.id)).toMatchObject({ firstName: 'Own', lastName: 'Name' })
    expect(
      await refusalOf(changeScimUser(t.deps, caller, member.id, { userName: uniqueEmail('moved') })),
    ).toEqual({
      status: 400,
      scimType: 'mutability',
      detail:
        'userName can change only while the person has not signed in yet and belongs to no other organization.',
    })
    expect(await userOf(member.id)).toMatchObject({ email: member.email })
  })

  it('treats someone with a membership elsewhere, even a disabled one, as not its own invitee', async () => {
    const { organization, caller } = await world()
    const other = await world()
    const person = await account(uniqueEmail('shared'), { firstName: 'Their', lastName: 'Own' })
    await addMember(t, {
      userId: person.id,
      organizationId: other.organization.id,
      role: 'MEMBER',
      status: 'DISABLED',
      select: false,
    })
    await addMember(t, {
      userId: person.id,
      organizationId: organization.id,
      role: 'MEMBER',
      status: 'INVITED',
      select: false,
    })
    expect(toScimUser(await findScimUser(t.db, organization.id, person.id), BASE)).toMatchObject({
      name: { givenName: '', familyName: '', formatted: '' },
    })
    const replaced = await changeScimUser(t.deps, caller, person.id, {
      userName: person.email,
      givenName: 'Provider',
      familyName: 'Name',
      externalId: null,
      active: true,
    })
    expect(replaced).toMatchObject({ name: { givenName: '', familyName: '' }, active: true })
    expect(await userOf(person.id)).toMatchObject({ firstName: 'Their', lastName: 'Own' })
    expect(
      await refusalOf(changeScimUser(t.deps, caller, person.id, { userName: uniqueEmail('moved') })),
    ).toMatchObject({
      status: 400,
      scimType: 'mutability',
    })
  })

  it('refuses an e-mail another account has (409 uniqueness), and takes the person’s own e-mail as unchanged', async () => {
    const { caller } = await world()
    const hire = await createScimUser(t.deps, caller, input(uniqueEmail('hire')))
    const stranger = await account(uniqueEmail('stranger'))
    expect(await refusalOf(changeScimUser(t.deps, caller, hire.id, { userName: stranger.email }))).toEqual({
      status: 409,
      scimType: 'uniqueness',
      detail: 'Another account already uses this userName.',
    })
    expect(await userOf(hire.id)).toMatchObject({ email: hire.userName })
    expect(await changeScimUser(t.deps, caller, hire.id, { userName: hire.userName })).toStrictEqual(hire)
  })

  it('changes and clears the externalId, refusing one another person has (409 uniqueness)', async () => {
    const { organization, caller } = await world()
    const hire = await createScimUser(t.deps, caller, input(uniqueEmail('hire'), { externalId: 'h-1' }))
    await createScimUser(t.deps, caller, input(uniqueEmail('peer'), { externalId: 'p-1' }))
    expect(await refusalOf(changeScimUser(t.deps, caller, hire.id, { externalId: 'p-1' }))).toEqual({
      status: 409,
      scimType: 'uniqueness',
      detail: 'Another person of the organization has this externalId.',
    })
    expect(await membershipOf(organization.id, hire.id)).toMatchObject({ externalId: 'h-1' })
    expect(await changeScimUser(t.deps, caller, hire.id, { externalId: 'h-2' })).toMatchObject({
      externalId: 'h-2',
    })
    expect(await membershipOf(organization.id, hire.id)).toMatchObject({ externalId: 'h-2' })
    const cleared = await changeScimUser(t.deps, caller, hire.id, { externalId: null })
    expect(cleared).not.toHaveProperty('externalId')
    expect(await membershipOf(organization.id, hire.id)).toMatchObject({ externalId: null })
  })

  it('writes nothing for a change that changes nothing, and only the externalId for an externalId change', async () => {
    const { caller } = await world()
    const hire = await createScimUser(t.deps, caller, input(uniqueEmail('hire'), { externalId: 'h-1' }))
    const same = { userName: hire.userName, externalId: 'h-1', active: true }
    expect(await verbsOf(() => changeScimUser(t.deps, caller, hire.id, same))).toEqual(['select', 'select'])
    expect(await verbsOf(() => changeScimUser(t.deps, caller, hire.id, {}))).toEqual(['select', 'select'])
    expect(await verbsOf(() => changeScimUser(t.deps, caller, hire.id, { externalId: 'h-2' }))).toEqual([
      'select',
      'select',
      'update',
      'select',
    ])
    // Clearing it cannot collide with anyone: no check.
    expect(await verbsOf(() => changeScimUser(t.deps, caller, hire.id, { externalId: null }))).toEqual([
      'select',
      'update',
      'select',
    ])
    expect(await verbsOf(() => changeScimUser(t.deps, caller, hire.id, { externalId: null }))).toEqual([
      'select',
      'select',
    ])
  })

  it('disables with active false and enables again with active true (INVITED until they sign in), each logged once', async () => {
    const { organization, admin, caller } = await world()
    const hire = await createScimUser(t.deps, caller, input(uniqueEmail('hire')))
    const before = (await eventsOf(organization.id)).length
    t.clock.set(at(4))
    expect(await changeScimUser(t.deps, caller, hire.id, { active: false })).toMatchObject({ active: false })
    expect(await membershipOf(organization.id, hire.id)).toMatchObject({ status: 'DISABLED' })
    expect(await verbsOf(() => changeScimUser(t.deps, caller, hire.id, { active: false }))).toEqual([
      'select',
      'select',
    ])
    t.clock.set(at(6))
    expect(await changeScimUser(t.deps, caller, hire.id, { active: true })).toMatchObject({ active: true })
    expect(await membershipOf(organization.id, hire.id)).toMatchObject({ status: 'INVITED' })
    expect(await verbsOf(() => changeScimUser(t.deps, caller, hire.id, { active: true }))).toEqual([
      'select',
      'select',
    ])
    const events = (await eventsOf(organization.id)).slice(before)
    expect(events).toEqual([
      {
        kind: 'member.changed',
        actorId: admin.id,
        serverTime: at(4),
        payload: { memberId: hire.id, changed: ['status'], role: 'MEMBER', status: 'DISABLED' },
      },
      {
        kind: 'member.changed',
        actorId: admin.id,
        serverTime: at(6),
        payload: { memberId: hire.id, changed: ['status'], role: 'MEMBER', status: 'INVITED' },
      },
    ])
  })

  it('answers 404 for a person it cannot see, before anything else', async () => {
    const { caller } = await world()
    expect(
      await refusalOf(
        changeScimUser(t.deps, caller, '00000000-0000-4000-8000-000000000000', { userName: 'x@y.example' }),
      ),
    ).toEqual(NOT_FOUND)
  })
})

describe('deleteScimUser', () => {
  it('disables the membership and marks it deleted by the provider, leaving other organizations alone', async () => {
    const { organization, caller } = await world()
    const other = await world()
    const hire = await createScimUser(t.deps, caller, input(uniqueEmail('leaver'), { externalId: 'l-1' }))
    await createScimUser(t.deps, other.caller, input(hire.userName))
    t.clock.set(at(12))
    await deleteScimUser(t.deps, caller, hire.id)
    expect(await membershipOf(organization.id, hire.id)).toMatchObject({
      status: 'DISABLED',
      externalId: 'l-1',
      scimRemovedAt: at(12),
    })
    expect(await membershipOf(other.organization.id, hire.id)).toMatchObject({
      status: 'INVITED',
      scimRemovedAt: null,
    })
    expect(await refusalOf(deleteScimUser(t.deps, caller, hire.id))).toEqual(NOT_FOUND)
  })

  it('marks a person already disabled as deleted too, without logging a change', async () => {
    const { organization, caller } = await world()
    const hire = await createScimUser(t.deps, caller, input(uniqueEmail('off'), { active: false }))
    const events = await eventsOf(organization.id)
    t.clock.set(at(13))
    await deleteScimUser(t.deps, caller, hire.id)
    expect(await membershipOf(organization.id, hire.id)).toMatchObject({
      status: 'DISABLED',
      scimRemovedAt: at(13),
    })
    expect(await eventsOf(organization.id)).toEqual(events)
  })
})
