import { eq, inArray, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { KEYCHAIN_FILTERS, type KeychainSummary } from '../../../contract/keychains.ts'
import { makeKeychain, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { makeTransfer, parisDay, transferWorld } from '../../../tests/server/transfers.ts'
import { keychains } from '../../db/schema.ts'
import { isCodeLike, keychainStatus, keychainStatusSql, statusWhere } from './list-filters.ts'

const NOW = new Date('2030-01-15T09:00:00Z')
const at = (ms: number) => new Date(NOW.getTime() + ms)

describe('a keychain’s status from its own columns and the clock', () => {
  const row = (
    transferStatus: 'SCHEDULED' | 'TRANSFERRED' | null,
    endsIn: number | null,
    custodianId: string | null = null,
  ) => ({
    transferStatus,
    transferEndsAt: endsIn === null ? null : at(endsIn),
    custodianId,
  })

  it('is out until the end of its transfer, overdue from that very instant', () => {
    expect(keychainStatus(row('TRANSFERRED', 1), NOW)).toBe('OUT')
    expect(keychainStatus(row('TRANSFERRED', 0), NOW)).toBe('OVERDUE')
    expect(keychainStatus(row('TRANSFERRED', -1, 'u1'), NOW)).toBe('OVERDUE')
    expect(keychainStatus(row('TRANSFERRED', null), NOW)).toBe('OVERDUE')
  })

  it('is scheduled until its window ends, then held or free as if it had none', () => {
    expect(keychainStatus(row('SCHEDULED', 1), NOW)).toBe('SCHEDULED')
    expect(keychainStatus(row('SCHEDULED', 0), NOW)).toBe('FREE')
    expect(keychainStatus(row('SCHEDULED', -1, 'u1'), NOW)).toBe('HELD')
  })

  it('without a transfer, is held when someone holds it, else free', () => {
    expect(keychainStatus(row(null, null, 'u1'), NOW)).toBe('HELD')
    expect(keychainStatus(row(null, null), NOW)).toBe('FREE')
    expect(keychainStatus(row(null, 5, 'u1'), NOW)).toBe('HELD')
  })

  it('has no condition for the deleted list (the caller filters on the deletion column)', () => {
    expect(statusWhere('deleted', NOW)).toBeUndefined()
    expect(statusWhere('free', NOW)).toBeDefined()
  })
})

describe('which searched texts can be part of a tag code (the tag index is asked only for those)', () => {
  it.each([
    ['SRC-00001', true],
    ['src-0', true],
    ['SRC-', true],
    ['00777', true],
    ['-12', true],
    ['-', true],
  ])('%s can', (text, expected) => {
    expect(isCodeLike(text)).toBe(expected)
  })

  it.each([
    ['SRC', false],
    ['Logement 00777', false],
    ['SRC-00001 x', false],
    ['x SRC-1', false],
    ['AB-12C', false],
    ['12-AB', false],
    ['', false],
  ])('%s cannot', (text, expected) => {
    expect(isCodeLike(text)).toBe(expected)
  })
})

const t = setupTestApp()

describe('GET /api/keychains?status=free and status=unheld', () => {
  it('free leaves out a keychain nobody holds that is out on a transfer; unheld keeps it', async () => {
    // Its own keychain, Cave, is held by its member: in neither list.
    const world = await transferWorld(t)
    const away = await makeKeychain(t, world.organization.id, 'Away')
    await makeKeychain(t, world.organization.id, 'Idle')
    await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: away.id,
      recipientId: world.contact.id,
      status: 'TRANSFERRED',
      toDate: parisDay(t, 3),
    })
    const names = async (status: string) => {
      const response = await t.get(`/api/keychains?status=${status}`, { cookie: world.admin.cookie })
      expect(response.status).toBe(200)
      return ((await response.json()) as { data: KeychainSummary[] }).data.map((row) => row.name)
    }
    expect(await names('free')).toEqual(['Idle'])
    expect(await names('unheld')).toEqual(['Away', 'Idle'])
  })
})

describe('the status rule, in JavaScript, in SQL and as filters', () => {
  it('gives every keychain the same status three ways, at the edges of its transfer', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    // A transfer status always comes with its window (both are copied from one transfer row): no status
    // without an end is made here.
    const shapes = [
      ...[null, -1, 0, 1].map((endsIn) => ({ transferStatus: null, endsIn })),
      ...(['SCHEDULED', 'TRANSFERRED'] as const).flatMap((transferStatus) =>
        [-1, 0, 1].map((endsIn) => ({ transferStatus, endsIn })),
      ),
    ].flatMap((shape) => [null, admin.id].map((custodianId) => ({ ...shape, custodianId })))
    const made: { id: string; expected: string }[] = []
    for (const [index, shape] of shapes.entries()) {
      const keychain = await makeKeychain(t, organization.id, `K${index}`, shape.custodianId ?? undefined)
      const transferEndsAt = shape.endsIn === null ? null : at(shape.endsIn)
      await t.db
        .update(keychains)
        .set({
          transferStatus: shape.transferStatus,
          transferStartsAt: transferEndsAt && at(-86_400_000),
          transferEndsAt,
        })
        .where(eq(keychains.id, keychain.id))
      made.push({
        id: keychain.id,
        expected: keychainStatus({ ...shape, transferEndsAt }, NOW),
      })
    }
    // `unheld` is about the holder only, `deleted` about the deletion column: not statuses.
    const filters = KEYCHAIN_FILTERS.filter((filter) => filter !== 'unheld' && filter !== 'deleted')
    const rows = await t.db
      .select({
        id: keychains.id,
        status: keychainStatusSql(NOW),
        ...Object.fromEntries(
          filters.map((filter) => [filter, sql<boolean>`coalesce(${statusWhere(filter, NOW)}, false)`]),
        ),
      })
      .from(keychains)
      .where(
        inArray(
          keychains.id,
          made.map((each) => each.id),
        ),
      )
    const byId = new Map(rows.map((row) => [row.id, row as Record<string, unknown>]))
    expect(new Set(made.map((each) => each.expected))).toEqual(
      new Set(['FREE', 'HELD', 'SCHEDULED', 'OUT', 'OVERDUE']),
    )
    for (const { id, expected } of made) {
      const row = byId.get(id)!
      expect(row.status, id).toBe(expected)
      for (const filter of filters)
        expect(row[filter], `${filter} of a ${expected} keychain`).toBe(filter.toUpperCase() === expected)
    }
  })
})
